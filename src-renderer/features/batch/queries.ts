// The catalog screen's data from main (src-shared/ipc/batch.ts): products, shot lists, the plan, batches and
// their reports, as react-query hooks over `call`. Keys live here, under one 'batch' prefix, so a change to
// products or shot lists can refresh every plan at once. Progress comes as `batch:changed` events, coalesced.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { BatchDetail, BatchPlanInput, ShotList } from '../../../src-shared/ipc/batch.ts';
import { call, onEvent } from '../../lib/desktop.ts';
import type { IpcMethodName, MethodInputOf, MethodOutputOf } from '../../lib/ipc-types.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useLanguage } from '../../i18n/useLanguage.ts';
import type { Language } from '../../../src-shared/language.ts';
import { useBatchStore, type ShotListDraft } from './store.ts';

// Main writes names of built-in lists, problems, pause messages, errors and notes in the UI language, so the
// language is part of every key that holds such text; prefixes without it refresh every language at once.
export const batchKeys = {
  all: () => ['batch'] as const,
  products: () => ['batch', 'products'] as const,
  shotLists: (language?: Language) => (language ? (['batch', 'shot-lists', language] as const) : (['batch', 'shot-lists'] as const)),
  plans: () => ['batch', 'plan'] as const,
  plan: (input: BatchPlanInput | null, language: Language) => ['batch', 'plan', input, language] as const,
  batches: (language?: Language) => (language ? (['batch', 'runs', language] as const) : (['batch', 'runs'] as const)),
  detail: (batchId: string, language?: Language) => (language ? (['batch', 'detail', batchId, language] as const) : (['batch', 'detail', batchId] as const)),
  /** Under the batch's detail, so `batch:changed` (a pick) refreshes it with the detail. */
  missingPicks: (batchId: string) => ['batch', 'detail', batchId, 'missing-picks'] as const,
  report: (batchId: string, language?: Language) => (language ? (['batch', 'report', batchId, language] as const) : (['batch', 'report', batchId] as const)),
  presets: (language: Language) => ['batch', 'presets', language] as const,
};

export function useProducts() {
  return useQuery({ queryKey: batchKeys.products(), queryFn: () => call('productList', {}) });
}

export function useShotLists() {
  const language = useLanguage();
  return useQuery({ queryKey: batchKeys.shotLists(language), queryFn: () => call('shotListList', {}) });
}

/** A mutation over one contract method; on success the listed caches (and every plan) are refreshed. */
function useBatchMutation<K extends IpcMethodName>(name: K, refresh: Array<readonly unknown[]>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: MethodInputOf<K>) => call(name, input) as Promise<MethodOutputOf<K>>,
    onSuccess: () => {
      for (const key of refresh) void client.invalidateQueries({ queryKey: key });
      void client.invalidateQueries({ queryKey: batchKeys.plans() });
    },
  });
}

export const useSaveProduct = () => useBatchMutation('productSave', [batchKeys.products()]);
export const useDeleteProduct = () => useBatchMutation('productDelete', [batchKeys.products()]);
export const useImportProducts = () => useBatchMutation('productImport', [batchKeys.products()]);
export const useExportProducts = () => useMutation({ mutationFn: (input: MethodInputOf<'productExport'>) => call('productExport', input) });
export const useSaveShotList = () => useBatchMutation('shotListSave', [batchKeys.shotLists()]);
export const useDeleteShotList = () => useBatchMutation('shotListDelete', [batchKeys.shotLists()]);
export const useResetShotList = () => useBatchMutation('shotListReset', [batchKeys.shotLists()]);

/**
 * Saves a shot list's unsaved edits (the editor's Save, "Save" when leaving, and Start): the saved list goes into the
 * cache at once, so the editor and the plan never show the old list in between, and the edits stop being a draft.
 * Resolves true once saved; on a refusal false, the error on `save.error`.
 */
export function useSaveDraft() {
  const client = useQueryClient();
  const language = useLanguage();
  const save = useSaveShotList();
  const saveDraft = async (draft: ShotListDraft): Promise<boolean> => {
    try {
      const saved = await save.mutateAsync({ id: draft.listId, name: draft.name, shots: draft.shots });
      client.setQueryData<ShotList[]>(batchKeys.shotLists(language), (lists) => lists?.map((l) => (l.id === saved.id ? saved : l)));
      if (useBatchStore.getState().draft === draft) useBatchStore.getState().setDraft(null);
      return true;
    } catch {
      return false;
    }
  };
  return { save, saveDraft };
}

/** `value`, once it has stopped changing for `ms` (the plan is priced after the designer pauses). */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const id = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(id);
  }, [value, ms]);
  return settled;
}

/** The plan for these inputs (null = nothing to price); the previous plan stays on screen while the next is priced. */
export function useBatchPlan(input: BatchPlanInput | null) {
  const language = useLanguage();
  return useQuery({
    queryKey: batchKeys.plan(input, language),
    queryFn: () => call('batchPlan', input as BatchPlanInput),
    enabled: input !== null,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useCreateBatch() {
  const client = useQueryClient();
  const language = useLanguage();
  return useMutation({
    mutationFn: (input: MethodInputOf<'batchCreate'>) => call('batchCreate', input),
    onSuccess: (detail: BatchDetail) => {
      client.setQueryData(batchKeys.detail(detail.id, language), detail);
      void client.invalidateQueries({ queryKey: batchKeys.batches() });
      // A built-in list the batch ran keeps its words from now on: the other language's cached lists are stale.
      void client.invalidateQueries({ queryKey: batchKeys.shotLists() });
      void client.invalidateQueries({ queryKey: batchKeys.plans() });
      void client.invalidateQueries({ queryKey: queryKeys.localStatus() });
    },
  });
}

export function useBatchList() {
  const language = useLanguage();
  return useQuery({ queryKey: batchKeys.batches(language), queryFn: () => call('batchList', {}) });
}

const detailQuery = (batchId: string, language: Language) => ({ queryKey: batchKeys.detail(batchId, language), queryFn: () => call('batchGet', { batchId }) });

export function useBatchDetail(batchId: string | null) {
  const language = useLanguage();
  return useQuery({
    ...detailQuery(batchId ?? '', language),
    enabled: batchId !== null,
    // Events carry the progress; this is only a safety net should one be missed while jobs are in flight.
    refetchInterval: (q) => (q.state.data?.state === 'running' ? 5_000 : false),
  });
}

/**
 * The batch detail as the page holds it, for the board's many cells: a cell mounting as its row scrolls into view
 * never reads the whole detail again (with the default it did once the detail was 5 s old: 6 MiB for 8,000 jobs,
 * again and again while scrolling). The page's own read and the batch's events keep it fresh.
 */
export function useHeldBatchDetail(batchId: string) {
  const language = useLanguage();
  return useQuery({ ...detailQuery(batchId, language), refetchOnMount: false });
}

/** The batch's budget from the detail the page holds (no read of its own); renders again only when it changes. */
export function useHeldBatchBudget(batchId: string): number | null | undefined {
  const language = useLanguage();
  return useQuery({ ...detailQuery(batchId, language), refetchOnMount: false, select: (d) => d.budget }).data;
}

/** Pause, resume, cancel, concurrency: each answers the batch's summary; the detail is refetched. */
export function useBatchControl<K extends 'batchPause' | 'batchResume' | 'batchCancel' | 'batchSetConcurrency'>(name: K) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: MethodInputOf<K>) => call(name, input) as Promise<MethodOutputOf<K>>,
    onSuccess: (_value, input) => {
      void client.invalidateQueries({ queryKey: batchKeys.detail(input.batchId) });
      void client.invalidateQueries({ queryKey: batchKeys.batches() });
    },
  });
}

/** A live batch's controls together: one busy flag for pause, resume and cancel, and the first error of the four. */
export function useBatchControls() {
  const pause = useBatchControl('batchPause');
  const resume = useBatchControl('batchResume');
  const cancel = useBatchControl('batchCancel');
  const setConcurrency = useBatchControl('batchSetConcurrency');
  const busy = pause.isPending || resume.isPending || cancel.isPending;
  return { pause, resume, cancel, setConcurrency, busy, error: pause.error ?? resume.error ?? cancel.error ?? setConcurrency.error };
}

export function useMarketplacePresets(enabled: boolean) {
  const language = useLanguage();
  return useQuery({ queryKey: batchKeys.presets(language), queryFn: () => call('marketplacePresets', {}), enabled, staleTime: Infinity });
}

export const useBatchExport = () => useMutation({ mutationFn: (input: MethodInputOf<'batchExport'>) => call('batchExport', input) });

/** Before a picks export: the product × shots with no pick to write (batch:missing-picks), read afresh at each open. */
export function useMissingPicks(batchId: string, enabled: boolean) {
  return useQuery({ queryKey: batchKeys.missingPicks(batchId), queryFn: () => call('batchMissingPicks', { batchId }), enabled, refetchOnMount: 'always' });
}

export function useBatchReport(batchId: string | null, enabled: boolean) {
  const language = useLanguage();
  return useQuery({
    queryKey: batchKeys.report(batchId ?? '', language),
    queryFn: () => call('batchReport', { batchId: batchId ?? '' }),
    enabled: enabled && batchId !== null,
  });
}

export const useBatchReportCsv = () => useMutation({ mutationFn: (input: MethodInputOf<'batchReportCsv'>) => call('batchReportCsv', input) });

/** Refresh cadence for batch events: at most one refresh per this many ms (a 4-wide run sends many). */
const EVENT_REFRESH_MS = 250;
/** Plans show the Local balance, which a running batch moves; they are re-priced less often. */
const PLAN_REFRESH_MS = 2_000;

/**
 * Keeps batches live: `batch:changed` refreshes the named batch (its detail and report), the batch list and,
 * less often, the plans and the balance. Refreshes are throttled (leading and trailing edge), so a burst of
 * job events costs at most ~4 refetches a second.
 */
export function useBatchEvents(): void {
  const client = useQueryClient();
  useEffect(() => {
    const pending = new Set<string>();
    let timer: number | null = null;
    let last = 0;
    let planTimer: number | null = null;
    let planLast = 0;
    const flush = () => {
      timer = null;
      last = Date.now();
      for (const id of pending) {
        void client.invalidateQueries({ queryKey: batchKeys.detail(id) });
        void client.invalidateQueries({ queryKey: batchKeys.report(id) });
      }
      pending.clear();
      void client.invalidateQueries({ queryKey: batchKeys.batches() });
    };
    const flushPlans = () => {
      planTimer = null;
      planLast = Date.now();
      void client.invalidateQueries({ queryKey: batchKeys.plans() });
      void client.invalidateQueries({ queryKey: queryKeys.localStatus() });
    };
    const off = onEvent('batch:changed', ({ batchId }) => {
      pending.add(batchId);
      if (timer === null) timer = window.setTimeout(flush, Math.max(0, last + EVENT_REFRESH_MS - Date.now()));
      if (planTimer === null) planTimer = window.setTimeout(flushPlans, Math.max(0, planLast + PLAN_REFRESH_MS - Date.now()));
    });
    return () => {
      off();
      if (timer !== null) window.clearTimeout(timer);
      if (planTimer !== null) window.clearTimeout(planTimer);
    };
  }, [client]);
}
