// The compose panel's draft and the session it continues. Recall and drag-to-reuse write here too.
import { create } from 'zustand';
import type { GenerateRequest } from '../../../src-shared/api.ts';
import { DEFAULT_PURPOSE, MAX_REFERENCE_IMAGES } from '../../../src-shared/catalog.ts';
import { EMPTY_DRAFT, type ComposeDraft } from './draft.ts';

/** The session a recalled image was made in: the library's own id when this library has it, else the service's (s_…). */
export interface RecallSource {
  sessionId: string | null;
  serviceSessionId: string | null;
}

export interface ContinuedSession {
  id: string;
  /** Shown title if known; null until the session's record is loaded. */
  title: string | null;
}

interface ComposeState {
  draft: ComposeDraft;
  /** References the service reported missing (reference_image_missing) or the library marks missing. */
  missingReferenceIds: string[];
  /** The local session the next generation continues; null starts a new one. */
  session: ContinuedSession | null;
  /** A service session id (s_…) typed in, e.g. one seen on the website; used when no local session is set. */
  serviceSessionId: string | null;
  /**
   * A one-line notice for the tray: why an outside file was refused, or what a dropped exported image recalled
   * (`count` references found in the library, `missing` not found; `name` the file).
   */
  trayNotice: {
    kind: 'refused_files' | 'limit' | 'duplicate' | 'recalled' | 'no_generation_data' | 'damaged_generation_data' | 'oversized_generation_data' | 'reader_unavailable';
    count: number;
    missing?: number;
    name?: string;
  } | null;
  /**
   * After a recall from another session than the one continued: the choice between continuing the recalled image's
   * session and starting a new one (until one is made, the session continued stays as it was).
   */
  recallOffer: RecallSource | null;
  update: (patch: Partial<ComposeDraft>) => void;
  addReferences: (ids: string[]) => void;
  removeReference: (id: string) => void;
  clearReferences: () => void;
  markMissing: (ids: string[]) => void;
  setSession: (session: ContinuedSession | null) => void;
  setServiceSessionId: (id: string | null) => void;
  setTrayNotice: (notice: ComposeState['trayNotice']) => void;
  /** Puts a turn's settings, references included, back into the draft; `from` is the session it was made in. */
  recall: (request: GenerateRequest, referenceIds: string[], from?: RecallSource) => void;
  /** The designer's answer to the recall offer: continue the recalled image's session, or start a new one. */
  answerRecallOffer: (answer: 'continue' | 'new') => void;
}

export const useComposeStore = create<ComposeState>((set) => ({
  draft: EMPTY_DRAFT,
  missingReferenceIds: [],
  session: null,
  serviceSessionId: null,
  trayNotice: null,
  recallOffer: null,
  update: (patch) => set((s) => ({ draft: { ...s.draft, ...patch } })),
  addReferences: (ids) =>
    set((s) => {
      const existing = new Set(s.draft.referenceIds);
      const fresh = ids.filter((id) => !existing.has(id));
      // The tray holds at most what any model takes; the model's own limit is shown (and checked) live.
      const room = Math.max(0, MAX_REFERENCE_IMAGES - s.draft.referenceIds.length);
      const accepted = fresh.slice(0, room);
      const notice =
        fresh.length > accepted.length
          ? { kind: 'limit' as const, count: fresh.length - accepted.length }
          : fresh.length < ids.length
            ? { kind: 'duplicate' as const, count: ids.length - fresh.length }
            : null;
      return { draft: { ...s.draft, referenceIds: [...s.draft.referenceIds, ...accepted] }, trayNotice: notice };
    }),
  removeReference: (id) =>
    set((s) => ({
      draft: { ...s.draft, referenceIds: s.draft.referenceIds.filter((r) => r !== id) },
      missingReferenceIds: s.missingReferenceIds.filter((r) => r !== id),
    })),
  clearReferences: () => set((s) => ({ draft: { ...s.draft, referenceIds: [] }, missingReferenceIds: [], trayNotice: null })),
  markMissing: (ids) => set((s) => ({ missingReferenceIds: [...new Set([...s.missingReferenceIds, ...ids])] })),
  setSession: (session) => set({ session, serviceSessionId: null, recallOffer: null }),
  setServiceSessionId: (serviceSessionId) => set({ serviceSessionId, session: null, recallOffer: null }),
  setTrayNotice: (trayNotice) => set({ trayNotice }),
  recall: (request, referenceIds, from) =>
    set((s) => ({
      draft: {
        prompt: request.prompt ?? '',
        model: request.model ?? 'auto',
        ratio: request.ratio ?? '3:4',
        resolution: request.resolution ?? '',
        quality: request.quality ?? '',
        n: request.n ?? 1,
        purpose: request.purpose_id ?? DEFAULT_PURPOSE,
        referenceIds: referenceIds.length > 0 ? referenceIds : (request.ref_image_ids ?? []),
      },
      missingReferenceIds: [],
      trayNotice: null,
      recallOffer: from && !continues(s, from) ? from : null,
    })),
  answerRecallOffer: (answer) =>
    set((s) => {
      const from = s.recallOffer;
      if (answer === 'new' || !from) return { session: null, serviceSessionId: null, recallOffer: null };
      return from.sessionId
        ? { session: { id: from.sessionId, title: null }, serviceSessionId: null, recallOffer: null }
        : { session: null, serviceSessionId: from.serviceSessionId, recallOffer: null };
    }),
}));

/** Whether the next generation already goes into the recalled image's session (then there is nothing to offer). */
function continues(s: Pick<ComposeState, 'session' | 'serviceSessionId'>, from: RecallSource): boolean {
  if (from.sessionId) return s.session?.id === from.sessionId;
  return from.serviceSessionId !== null && s.serviceSessionId === from.serviceSessionId;
}
