// The one inline error of the app: a failed call's message, as main wrote it (already in the UI language).
import type { DesktopError } from '../lib/desktop.ts';
import type { IpcError } from '../lib/ipc-types.ts';

/** The IpcError behind a failed call (a DesktopError), or a plain one for anything else thrown. */
export function ipcErrorOf(error: unknown): IpcError | null {
  if (!error) return null;
  const ipc = (error as DesktopError).ipc;
  if (ipc && typeof ipc.code === 'string') return ipc;
  return { code: 'unknown', message: error instanceof Error ? error.message : String(error) };
}

/**
 * One failed call, in a line; nothing when `error` is empty. `showCode` sets it apart as a box with the code
 * small beside the message, for screens where support asks for it (the catalog).
 */
export function ErrorLine({ error, testId, showCode = false }: { error: unknown; testId?: string; showCode?: boolean }) {
  const ipc = ipcErrorOf(error);
  if (!ipc) return null;
  return (
    <p className={showCode ? 'error-line-boxed' : 'hint-danger'} role="alert" data-testid={testId} data-code={ipc.code}>
      {ipc.message}
      {showCode ? (
        <>
          {' '}
          <code className="error-line-code">{ipc.code}</code>
        </>
      ) : null}
    </p>
  );
}
