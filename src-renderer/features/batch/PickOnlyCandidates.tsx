// The board's "Pick the only candidate in N cells" (catalog:pick-only-candidates): after an n=1 run each done cell
// has one candidate, and picking each by hand is a press per cell. Shown only while some cell has one to pick (N
// counted by the same rule main picks by, src-shared/only-candidate.ts), and only once the whole board is in.
import { useMemo } from 'react';
import type { CatalogBoard } from '../../../src-shared/ipc/batch-board.ts';
import { ErrorLine } from '../../ui/ErrorLine.tsx';
import type { BoardT } from './board-i18n.ts';
import { onlyCandidateCount } from './board-model.ts';
import { usePickOnlyCandidates } from './board-queries.ts';

export function PickOnlyCandidates({ board, whole, t }: { board: CatalogBoard; whole: boolean; t: BoardT }) {
  const count = useMemo(() => onlyCandidateCount(board), [board]);
  const pick = usePickOnlyCandidates(board.batchId);
  if (!whole || (count === 0 && !pick.error)) return null;
  return (
    <div className="row-gap wrap">
      {count > 0 ? (
        <button type="button" className="btn btn-sm" data-testid="pick-only-candidates" data-count={count} title={t('pickOnlyTitle')} disabled={pick.isPending} onClick={() => pick.mutate()}>
          {t('pickOnly', { count })}
        </button>
      ) : null}
      <ErrorLine error={pick.error} testId="pick-only-error" showCode />
    </div>
  );
}
