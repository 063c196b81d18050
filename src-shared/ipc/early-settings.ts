// Early settings (DESIGN.md §2): the window asks main for the settings as it opens, ahead of the renderer's
// bundle, and the renderer's first settingsGet() without input takes that answer; any other call, or one after
// `ms`, asks again. One owner for the preload and the harness's client: the harness serialises this very
// function into its client script (`.toString()`), so it is written self-contained: no imports, no module
// names, plain JavaScript once its types are stripped.

type AskSettings = (input?: unknown) => Promise<unknown>;

export function withEarlySettings<Api extends { settingsGet: (input: never) => Promise<unknown> }>(api: Api, ms: number): Api {
  const ask = api.settingsGet as unknown as AskSettings;
  let early: Promise<unknown> | null = ask({});
  // An answer nobody takes must not be an unhandled rejection; whoever takes it still sees the rejection.
  early.catch(() => undefined);
  setTimeout(() => {
    early = null;
  }, ms);
  const settingsGet: AskSettings = (input) => {
    const taken = early;
    early = null;
    const noInput = input === undefined || (typeof input === 'object' && input !== null && Object.keys(input).length === 0);
    return taken && noInput ? taken : ask(input);
  };
  return { ...api, settingsGet: settingsGet as unknown as Api['settingsGet'] };
}
