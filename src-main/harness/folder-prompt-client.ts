// The folder prompt's in-page dialog (folder-prompt.ts), part of the harness's api.js (client-script.ts): shown when
// the events socket says a chooser is waiting for a person, it lists folders through the prompt's endpoints, goes up
// and into folders, and answers with the folder shown or cancels. Plain DOM, styled through the CSSOM (the page's
// CSP refuses style attributes in markup, not element.style), in the page's language.

/** The events-socket message that opens (payload: the prompt) or closes (payload: null) the dialog. */
export const FOLDER_PROMPT_EVENT = 'harness:folder-prompt';

/** Script text defining `folderPrompt.show(prompt | null)`; it runs inside api.js, where `origin` and `token` are defined. */
export const FOLDER_PROMPT_CLIENT = `
  const folderPrompt = (() => {
    const words = {
      en: { up: 'Up', choose: 'Choose this folder', cancel: 'Cancel', empty: 'No folders here.', roots: 'Go to' },
      zh: { up: '上一级', choose: '选择此文件夹', cancel: '取消', empty: '此处没有文件夹。', roots: '转到' },
    };
    let dialog = null;
    let prompt = null;
    let shown = null;
    const say = () => words[(document.documentElement.lang || '').startsWith('zh') ? 'zh' : 'en'];

    function el(tag, testId, text) {
      const node = document.createElement(tag);
      if (testId) node.dataset.testid = testId;
      if (text !== undefined) node.textContent = text;
      return node;
    }
    function button(testId, text, onClick) {
      const node = el('button', testId, text);
      node.type = 'button';
      node.className = 'btn btn-sm';
      node.addEventListener('click', onClick);
      return node;
    }
    async function call(method, path, body) {
      try {
        const response = await fetch(origin + path, {
          method,
          headers: { 'content-type': 'application/json', 'x-studio-token': token },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const reply = await response.json().catch(() => ({ error: 'HTTP ' + response.status }));
        return response.ok ? { ok: true, value: reply } : { ok: false, error: String(reply.error || 'HTTP ' + response.status) };
      } catch (err) {
        return { ok: false, error: String(err) };
      }
    }
    function showError(message) {
      const line = dialog && dialog.querySelector('[data-testid="harness-folder-error"]');
      if (line) line.textContent = message;
    }
    async function open(path) {
      const reply = await call('GET', '/harness/folder-prompt/folders?path=' + encodeURIComponent(path));
      if (!reply.ok) return showError(reply.error);
      if (dialog) render(reply.value);
    }
    async function answer(folder) {
      if (!prompt) return;
      const reply = await call('POST', '/harness/folder-prompt/answer', { id: prompt.id, folder });
      if (!reply.ok) return showError(reply.error);
      close();
    }
    function render(listing) {
      shown = listing;
      const t = say();
      dialog.querySelector('[data-testid="harness-folder-path"]').textContent = listing.path;
      const up = dialog.querySelector('[data-testid="harness-folder-up"]');
      up.disabled = listing.parent === null;
      const list = dialog.querySelector('[data-testid="harness-folder-list"]');
      list.replaceChildren(
        ...(listing.folders.length === 0
          ? [el('li', null, t.empty)]
          : listing.folders.map((folder) => {
              const item = el('li');
              const go = button('harness-folder-item', folder.name, () => void open(folder.path));
              go.dataset.path = folder.path;
              go.style.width = '100%';
              go.style.textAlign = 'start';
              item.style.marginBottom = '4px';
              item.append(go);
              return item;
            })),
      );
      showError('');
    }
    function build() {
      const t = say();
      const node = el('dialog', 'harness-folder-prompt');
      node.setAttribute('aria-labelledby', 'harness-folder-title');
      // The app's theme variables, so the prompt follows light and dark; system colours where they are missing.
      Object.assign(node.style, {
        width: 'min(560px, 90vw)',
        padding: '16px',
        background: 'var(--panel, Canvas)',
        color: 'var(--text-1, CanvasText)',
        border: '1px solid var(--border, GrayText)',
        borderRadius: 'var(--radius-lg, 8px)',
        boxShadow: 'var(--shadow-lg, none)',
      });
      const title = el('h2', 'harness-folder-title', prompt.title);
      title.id = 'harness-folder-title';
      title.style.margin = '0 0 8px';
      const path = el('p', 'harness-folder-path');
      path.style.overflowWrap = 'anywhere';
      const nav = el('div');
      Object.assign(nav.style, { display: 'flex', flexWrap: 'wrap', gap: '8px', alignItems: 'center' });
      nav.append(button('harness-folder-up', t.up, () => shown && shown.parent && void open(shown.parent)), el('span', null, t.roots));
      for (const root of prompt.roots) nav.append(button('harness-folder-root', root, () => void open(root)));
      const list = el('ul', 'harness-folder-list');
      Object.assign(list.style, { listStyle: 'none', padding: '0', margin: '8px 0', maxHeight: '50vh', overflowY: 'auto' });
      const error = el('p', 'harness-folder-error');
      error.setAttribute('role', 'alert');
      const actions = el('div');
      Object.assign(actions.style, { display: 'flex', gap: '8px', justifyContent: 'flex-end' });
      actions.append(button('harness-folder-cancel', t.cancel, () => void answer(null)), button('harness-folder-choose', t.choose, () => shown && void answer(shown.path)));
      node.append(title, path, nav, list, error, actions);
      // Escape cancels the chooser, as the OS chooser does.
      node.addEventListener('cancel', (event) => {
        event.preventDefault();
        void answer(null);
      });
      return node;
    }
    function close() {
      prompt = null;
      shown = null;
      if (dialog) dialog.remove();
      dialog = null;
    }
    function show(next) {
      if (!next) return close();
      if (prompt && prompt.id === next.id) return;
      if (!document.body) {
        document.addEventListener('DOMContentLoaded', () => show(next), { once: true });
        return;
      }
      close();
      prompt = next;
      dialog = build();
      document.body.append(dialog);
      dialog.showModal();
      void open(next.start);
    }
    return { show };
  })();
`;
