// IPC handlers that belong to the app as a whole: this start's notices and opening a link in the browser.
import { externalLinkAllowed } from '../domain/external-links.ts';
import { StudioError } from '../domain/errors.ts';
import type { DesktopShell } from '../ports/desktop-shell.ts';
import type { HandlerTable } from '../ports/ipc-table.ts';
import type { StartupNotices } from './startup-notices.ts';

export type AppMethods = 'appNotices' | 'appDismissNotice' | 'shellOpenExternal';

export interface AppHandlerDeps {
  /** What this start has to tell the user (damaged files kept aside, backups restored). */
  notices: StartupNotices;
  shell: Pick<DesktopShell, 'openExternal'>;
  /** The base URLs of the environments now: only their origins may be opened (domain/external-links.ts). */
  environmentBaseUrls: () => ReadonlyArray<string | null>;
}

export function createAppHandlers(deps: AppHandlerDeps): HandlerTable<AppMethods> {
  return {
    appNotices: async () => deps.notices.list(),
    appDismissNotice: async ({ id }) => deps.notices.dismiss(id),
    shellOpenExternal: async ({ url }) => {
      if (!externalLinkAllowed(url, deps.environmentBaseUrls())) throw new StudioError('link_not_allowed');
      await deps.shell.openExternal(url);
      return { opened: true };
    },
  };
}
