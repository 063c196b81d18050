// Main → renderer events (src-shared/ipc events). Features tell the UI what changed through this one function;
// the composition root (app/) passes every payload through the secret screen before a listener sees it.
import type { IpcEventName, IpcEvents } from '../../src-shared/ipc/index.ts';

export type Emit = <E extends IpcEventName>(event: E, payload: IpcEvents[E]) => void;
