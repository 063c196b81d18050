// The harness's stand-in for the preload: a classic script, served from the harness's own origin (so the
// renderer's CSP `script-src 'self'` allows it), that defines window.api with the preload's exact shape.
// Methods and events come from the same contract lists as the preload (DESIGN.md §2 rule 2), and the early
// settings from the preload's own function (serialised here, so the two cannot drift). Every request names the
// harness's origin (`http://127.0.0.1:<port>`, as the page was opened) explicitly: nothing is relative to whatever
// page runs the script, so a page on another origin could not receive the token even if it ran it.
import { withEarlySettings } from '../../src-shared/ipc/early-settings.ts';
import { EARLY_SETTINGS_MS, IPC_EVENT_NAMES, IPC_METHODS } from '../../src-shared/ipc/index.ts';
import { FOLDER_PROMPT_CLIENT, FOLDER_PROMPT_EVENT } from './folder-prompt-client.ts';

/** The script for the harness at `origin` (`http://<host>:<port>`, the Host the page was opened with). */
export function harnessClientScript(token: string, origin: string): string {
  const channels = Object.fromEntries(Object.entries(IPC_METHODS).map(([name, m]) => [name, m.channel]));
  return `(() => {
  'use strict';
  const token = ${JSON.stringify(token)};
  const origin = ${JSON.stringify(origin)};
  const channels = ${JSON.stringify(channels)};
  const events = ${JSON.stringify(IPC_EVENT_NAMES)};
  const listeners = new Map(events.map((e) => [e, new Set()]));
${FOLDER_PROMPT_CLIENT}

  function failure(code, message) {
    return { ok: false, error: { code, message } };
  }
  async function invoke(channel, input) {
    let response;
    try {
      response = await fetch(origin + '/ipc/' + encodeURIComponent(channel), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-studio-token': token },
        body: JSON.stringify(input === undefined ? {} : input),
      });
    } catch (err) {
      return failure('ipc_unavailable', 'The harness is not reachable: ' + String(err));
    }
    try {
      return await response.json();
    } catch {
      return failure('ipc_bad_reply', 'The harness answered HTTP ' + response.status + ' without a result.');
    }
  }

  let socket = null;
  let retryMs = 250;
  function connect() {
    socket = new WebSocket(origin.replace(/^http/, 'ws') + '/events?token=' + encodeURIComponent(token));
    socket.onopen = () => { retryMs = 250; };
    socket.onmessage = (message) => {
      let data;
      try { data = JSON.parse(message.data); } catch { return; }
      if (data.event === ${JSON.stringify(FOLDER_PROMPT_EVENT)}) return folderPrompt.show(data.payload);
      const set = listeners.get(data.event);
      if (!set) return;
      for (const listener of [...set]) {
        try { listener(data.payload); } catch (err) { console.error(err); }
      }
    };
    socket.onclose = () => {
      socket = null;
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 5000);
    };
  }
  connect();

  const api = {};
  for (const [name, channel] of Object.entries(channels)) {
    api[name] = (input) => invoke(channel, input);
  }
  // As the preload does (the same function): the settings are asked for now, ahead of the renderer's bundle.
  Object.assign(api, (${withEarlySettings.toString()})(api, ${EARLY_SETTINGS_MS}));
  api.on = (event, listener) => {
    const set = listeners.get(event);
    if (!set) throw new Error('Unknown event: ' + String(event));
    if (typeof listener !== 'function') throw new TypeError('listener must be a function');
    set.add(listener);
    return () => { set.delete(listener); };
  };
  api.imageUrl = (kind, imageId) =>
    origin + '/studio-image/' + encodeURIComponent(kind) + '/' + encodeURIComponent(imageId) + '?token=' + encodeURIComponent(token);
  Object.defineProperty(window, 'api', { value: Object.freeze(api), writable: false, configurable: false, enumerable: true });
})();
`;
}
