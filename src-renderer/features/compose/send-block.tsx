// Why Generate is disabled, said beside it in plain words: an empty form (nothing to send), or references in the
// tray that the service deleted (it would refuse the request; the tray offers to drop them). Other refusals stay
// on Generate's click, with the service's own message (ComposePanel).
import { useQueries } from '@tanstack/react-query';
import { appText, useText } from '../../i18n/text.ts';
import { imageQuery } from '../../lib/library-queries.ts';
import type { DraftCheck } from './draft.ts';
import { useComposeStore } from './store.ts';

export type SendBlock = { kind: 'empty' } | { kind: 'missing_references'; imageIds: string[] } | null;

/** The tray's references that are gone: reported missing by the service, or marked missing in the library. */
function useMissingReferences(): string[] {
  const ids = useComposeStore((s) => s.draft.referenceIds);
  const flagged = useComposeStore((s) => s.missingReferenceIds);
  // The same queries the tray's items read (one cache entry per image): nothing is asked twice.
  const details = useQueries({ queries: ids.map((id) => ({ ...imageQuery(id), retry: false })) });
  return ids.filter((id, i) => flagged.includes(id) || details[i]?.data?.image.missing === true);
}

export function useSendBlock(check: DraftCheck): SendBlock {
  const missing = useMissingReferences();
  if (missing.length > 0) return { kind: 'missing_references', imageIds: missing };
  if (!check.ok && check.error.code === 'prompt_or_reference_required') return { kind: 'empty' };
  return null;
}

export const SEND_BLOCK_ID = 'generate-blocked';

export function SendBlockReason({ block }: { block: NonNullable<SendBlock> }) {
  const t = useText(appText);
  const removeReference = useComposeStore((s) => s.removeReference);
  if (block.kind === 'empty') {
    return (
      <p className="send-block muted small" id={SEND_BLOCK_ID} data-testid="generate-blocked" data-reason="empty">
        {t('compose.blockedEmpty')}
      </p>
    );
  }
  const count = block.imageIds.length;
  return (
    <div className="send-block send-block-refused" role="alert" data-testid="generate-blocked" data-reason="missing_references">
      <p className="small" id={SEND_BLOCK_ID}>
        {t('compose.blockedMissing', { count })}
      </p>
      <button type="button" className="btn btn-sm" data-testid="remove-missing-references" onClick={() => block.imageIds.forEach((id) => removeReference(id))}>
        {t('compose.removeMissing', { count })}
      </button>
    </div>
  );
}
