import type { MethodInput } from '../../src-shared/ipc/contract.ts';
import type { IpcMethods } from '../../src-shared/ipc/index.ts';

export type { LocalConsoleState, LocalPackView, PublishOutcome } from '../../src-shared/ipc/local-console.ts';
export type MethodInputOf<K extends keyof IpcMethods> = MethodInput<IpcMethods[K]>;
