// Types of the IPC contract as the renderer uses them (type-only: no runtime code crosses into the bundle).
import type { MethodInput, MethodOutput } from '../../src-shared/ipc/contract.ts';
import type { IpcMethodName, IpcMethods } from '../../src-shared/ipc/index.ts';

export type MethodInputOf<K extends IpcMethodName> = MethodInput<IpcMethods[K]>;
export type MethodOutputOf<K extends IpcMethodName> = MethodOutput<IpcMethods[K]>;

export type {
  ImageKind,
  ImageUrlKind,
  IpcError,
  IpcEventName,
  IpcEvents,
  IpcMethodName,
  IpcMethods,
  StudioApi,
} from '../../src-shared/ipc/index.ts';
