// The selection as the designer sees it: a filter change keeps the selected images, but the ones the filters now
// hide are neither shown nor acted on (export, compare, board, references, marks). The bar says how many are hidden.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { call } from '../../lib/desktop.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useGalleryStore } from '../../lib/library-state/store.ts';

/** How many ids the check asks for: the most "select all" selects. */
const MATCHING_LIMIT = 5000;

export interface SelectionInView {
  /** The selected images the filters let through, in selection order: what every action applies to. */
  visible: string[];
  /** How many selected images the filters hide. */
  hidden: number;
}

/** Splits the selection by the current filters (while the answer is on its way, nothing counts as hidden). */
export function useSelectionInView(): SelectionInView {
  const selected = useGalleryStore((s) => s.selected);
  const filters = useGalleryStore((s) => s.filters);
  const matching = useQuery({
    queryKey: queryKeys.matchingIds(filters),
    queryFn: () => call('libraryImageIds', { filters, limit: MATCHING_LIMIT }),
    enabled: selected.length > 0,
  });
  return useMemo(() => {
    const answer = matching.data;
    // Past the limit the answer does not list every match: then nothing is called hidden.
    if (!answer || answer.total > answer.ids.length) return { visible: selected, hidden: 0 };
    const passing = new Set(answer.ids);
    const visible = selected.filter((id) => passing.has(id));
    return { visible, hidden: selected.length - visible.length };
  }, [matching.data, selected]);
}
