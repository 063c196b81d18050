import { describe, expect, it } from 'vitest';
import { IPC_METHODS, type IpcMethodName } from '../../src-shared/ipc/index.ts';
import type { IpcHandlers } from '../ports/ipc-table.ts';
import { mergeHandlerTables } from './tables.ts';

const answer = async () => null;

/** A table answering `methods`, typed loosely: these cases test the checks made when the app starts. */
function table(methods: readonly string[]): Partial<IpcHandlers> {
  return Object.fromEntries(methods.map((m) => [m, answer])) as Partial<IpcHandlers>;
}

const ALL = Object.keys(IPC_METHODS) as IpcMethodName[];

describe('merging the rooms\' handler tables', () => {
  it('gives one table that answers every method of the contract', () => {
    const merged = mergeHandlerTables(...([table(ALL.slice(0, 10)), table(ALL.slice(10))] as unknown as [IpcHandlers]));
    expect(Object.keys(merged).sort()).toEqual([...ALL].sort());
  });

  it('refuses a method two rooms both answer', () => {
    expect(() => mergeHandlerTables(...([table(ALL), table(['settingsGet'])] as unknown as [IpcHandlers]))).toThrow('IPC method settingsGet is answered by two features');
  });

  it('names the methods nobody answers', () => {
    const without = ALL.filter((m) => m !== 'libraryGetTurn' && m !== 'keyTest');
    expect(() => mergeHandlerTables(...([table(without)] as unknown as [IpcHandlers]))).toThrow(/nobody answers: .*(libraryGetTurn|keyTest)/);
  });
});
