// The one secret screen (docs/main-process.md "Secrets never leave main"): everything main sends to a
// window (IPC replies and events) and every text a remote service wrote that main stores or shows passes
// through it. It redacts what looks like a key, a webhook secret, an admin token or a bearer credential, and
// every exact secret value main knows, and leaves the rest of the reply intact: a prompt or a request path
// that happens to hold a key-shaped string still shows, with that part blacked out.

/**
 * Shapes of our secrets (32 characters after the prefix; 16+ catches cut-off copies; `_`/`-` inside catches
 * `sk_live_…`-style keys). Not after a letter or digit, so `task_…` or `mask_…` never match, but `token_sk_…` does.
 */
const SHAPED = /(?<![A-Za-z0-9])(sk|whsec|adm)_[A-Za-z0-9_-]{16,}/g;
/**
 * An Authorization value echoed back: `Bearer` and a credential-looking run (16+ token68 characters), whatever
 * the key looks like. A prompt's "ring bearer pillow" is not one.
 */
const BEARER = /(?<![A-Za-z0-9])(Bearer)\s+[A-Za-z0-9._~+/=-]{16,}/gi;
/** Exact values shorter than this are not searched for: too likely to occur by chance. */
const MIN_KNOWN_LENGTH = 8;

export const REDACTED = '[redacted]';

function compile(known: Iterable<string>): string[] {
  const values: string[] = [];
  for (const value of known) if (value.length >= MIN_KNOWN_LENGTH) values.push(value);
  // Longest first, so a value that contains another is replaced whole.
  return values.sort((a, b) => b.length - a.length);
}

function redactWith(text: string, known: readonly string[]): string {
  let out = text;
  for (const value of known) if (out.includes(value)) out = out.split(value).join(REDACTED);
  // The bearer form first: `Bearer sk_…` becomes `Bearer [redacted]`, not a key shape inside a bearer.
  return out.replace(BEARER, (_m, word: string) => `${word} ${REDACTED}`).replace(SHAPED, (_m, prefix: string) => `${prefix}_${REDACTED}`);
}

function mayHold(text: string, known: readonly string[]): boolean {
  SHAPED.lastIndex = 0;
  BEARER.lastIndex = 0;
  if (SHAPED.test(text) || BEARER.test(text)) return true;
  // `text` may be JSON, where a value holding `"` or `\` appears escaped.
  return known.some((value) => text.includes(value) || text.includes(JSON.stringify(value).slice(1, -1)));
}

/** `text` with every secret-looking part and every known secret value replaced. */
export function redactSecrets(text: string, known: Iterable<string> = []): string {
  return redactWith(text, compile(known));
}

/** Whether `text` holds anything the screen would redact. */
export function holdsSecret(text: string, known: Iterable<string> = []): boolean {
  return mayHold(text, compile(known));
}

/**
 * `value` (a JSON-shaped reply or event payload) with every string screened. Unchanged values are returned
 * as they are (one JSON pass decides). `keep` names exact strings that may pass once, e.g. the new key the
 * harness shows a single time in its dialog (the harness has no system clipboard to put it on).
 */
export function screenValue<T>(value: T, known: Iterable<string> = [], keep: ReadonlySet<string> = new Set()): T {
  const values = compile(known);
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  if (text !== undefined && !mayHold(text, values)) return value;
  return screen(value, values, keep) as T;
}

function screen(value: unknown, known: readonly string[], keep: ReadonlySet<string>): unknown {
  if (typeof value === 'string') return keep.has(value) ? value : redactWith(value, known);
  if (Array.isArray(value)) return value.map((v) => screen(v, known, keep));
  if (value !== null && typeof value === 'object' && (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[redactWith(k, known)] = screen(v, known, keep);
    return out;
  }
  return value;
}
