// One table from the features' tables: each feature answers its own methods (its index.ts), and together
// they must answer every method of the contract exactly once. The compiler names a missing method; a method
// two features both answer is refused when the app starts.
import { IPC_METHODS, type IpcMethodName } from '../../src-shared/ipc/index.ts';
import type { IpcHandlers } from '../ports/ipc-table.ts';

type Table = Partial<IpcHandlers>;
type Answered<T extends Table[]> = { [I in keyof T]: keyof T[I] }[number];
type Unanswered<T extends Table[]> = Exclude<IpcMethodName, Answered<T>>;

export function mergeHandlerTables<T extends Table[]>(...tables: [Unanswered<T>] extends [never] ? T : [{ unanswered: Unanswered<T> }]): IpcHandlers {
  const merged: Record<string, unknown> = {};
  for (const table of tables as Table[]) {
    for (const [method, handler] of Object.entries(table)) {
      if (Object.hasOwn(merged, method)) throw new Error(`IPC method ${method} is answered by two features`);
      merged[method] = handler;
    }
  }
  const missing = Object.keys(IPC_METHODS).filter((method) => !Object.hasOwn(merged, method));
  if (missing.length > 0) throw new Error(`IPC methods nobody answers: ${missing.join(', ')}`);
  return merged as IpcHandlers;
}
