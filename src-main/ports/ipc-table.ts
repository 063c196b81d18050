// The shape of an IPC handler table. Each feature owns the table of the methods it answers (its index.ts
// exports it); ipc/ merges the tables, parses every input with the contract's schema and screens every reply,
// so a handler receives parsed input and may throw a StudioError.
import type { z } from 'zod';
import type { MethodOutput } from '../../src-shared/ipc/contract.ts';
import type { IpcMethodName, IpcMethods } from '../../src-shared/ipc/index.ts';

export type IpcHandler<K extends IpcMethodName> = (input: z.output<IpcMethods[K]['input']>) => Promise<MethodOutput<IpcMethods[K]>>;

/** The whole table: one handler for every method of the contract. */
export type IpcHandlers = { [K in IpcMethodName]: IpcHandler<K> };

/** A feature's share of the table: the handlers of the methods it answers. */
export type HandlerTable<K extends IpcMethodName> = Pick<IpcHandlers, K>;
