// Boards (images put together by hand) and smart boards (saved filters), from the library through main. Changes made
// elsewhere (another window, main) come with main's library:changed events (lib/library-state/library-events.ts).
import { useCallback } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Board, GalleryFilters, SmartBoard } from '../../../src-shared/ipc/library.ts';
import { call } from '../../lib/desktop.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { sortByName } from './board-order.ts';

function refreshBoards(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: queryKeys.boards() });
  // A board's view is a gallery filter: adding or removing images changes what it shows.
  void client.invalidateQueries({ queryKey: queryKeys.galleries() });
  // The viewer lists the boards an image is on.
  void client.invalidateQueries({ queryKey: queryKeys.images() });
}

/** board:add / board:remove take up to 1000 images a call: a larger selection goes in batches (the last answer counts). */
async function inBatches(method: 'boardAdd' | 'boardRemove', input: { boardId: string; imageIds: string[] }): Promise<Board> {
  let board: Board | null = null;
  for (let i = 0; i < input.imageIds.length || board === null; i += 1000) {
    board = await call(method, { boardId: input.boardId, imageIds: input.imageIds.slice(i, i + 1000) });
  }
  return board;
}

/** Sorts a list by name in the UI language (board-order.ts); a new language sorts again. */
function useNameOrder<T extends { id: string; name: string }>(): (items: T[]) => T[] {
  const language = useLanguage();
  return useCallback((items: T[]) => sortByName(items, language), [language]);
}

export function useBoards() {
  return useQuery({ queryKey: queryKeys.boards(), queryFn: () => call('boardList', {}), select: useNameOrder<Board>() });
}

export function useSmartBoards() {
  return useQuery({ queryKey: queryKeys.smartBoards(), queryFn: () => call('smartBoardList', {}), select: useNameOrder<SmartBoard>() });
}

export function useCreateBoard() {
  const client = useQueryClient();
  return useMutation({ mutationFn: (name: string) => call('boardCreate', { name }), onSuccess: () => refreshBoards(client) });
}

export function useRenameBoard() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { boardId: string; name: string }) => call('boardRename', input),
    onSuccess: () => refreshBoards(client),
  });
}

export function useDeleteBoard() {
  const client = useQueryClient();
  return useMutation({ mutationFn: (boardId: string) => call('boardDelete', { boardId }), onSuccess: () => refreshBoards(client) });
}

export function useBoardAdd() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { boardId: string; imageIds: string[] }) => inBatches('boardAdd', input),
    onSuccess: () => refreshBoards(client),
  });
}

export function useBoardRemove() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { boardId: string; imageIds: string[] }) => inBatches('boardRemove', input),
    onSuccess: () => refreshBoards(client),
  });
}

export function useSaveSmartBoard() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { id?: string; name: string; filters: GalleryFilters }) => call('smartBoardSave', input),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.smartBoards() }),
  });
}

export function useDeleteSmartBoard() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('smartBoardDelete', { id }),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.smartBoards() }),
  });
}
