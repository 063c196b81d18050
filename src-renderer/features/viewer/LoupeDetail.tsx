// The loupe's side panel under the toolbar: culling, "advance after marking", the image's actions (export, use as
// reference, recall, copy as code, delete on the local service) and its full details.
import { useState } from 'react';
import type { ImageDetail } from '../../../src-shared/ipc/library.ts';
import { appText, useText } from '../../i18n/text.ts';
import { useSession } from '../../lib/library-queries.ts';
import { useComposeStore } from '../compose/index.ts';
import { useExportImage } from '../gallery/index.ts';
import { useGalleryStore } from '../../lib/library-state/store.ts';
import { useGalleryView } from '../../lib/library-state/view-store.ts';
import { useLocalAction } from '../local-console/index.ts';
import { CopyAsCode } from '../runs/index.ts';
import { useSettings } from '../settings/index.ts';
import { CullBar } from './CullBar.tsx';
import { loupeText } from './i18n.ts';
import { MetaPanel } from './MetaPanel.tsx';
import type { Marks } from '../../lib/library-state/marks.ts';

export function LoupeDetail(props: { id: string; data: ImageDetail | undefined; error: Error | null; onMark: (marks: Marks) => void; markError: Error | null; close: () => void }) {
  const { id, data, close } = props;
  const t = useText(appText);
  const lt = useText(loupeText);
  const open = useGalleryStore((s) => s.openViewer);
  const advance = useGalleryView((s) => s.advance);
  const setAdvance = useGalleryView((s) => s.setAdvance);
  const session = useSession(data?.image.sessionId ?? null);
  const exportImage = useExportImage();
  const recall = useComposeStore((s) => s.recall);
  const addReferences = useComposeStore((s) => s.addReferences);
  const environment = useSettings().data?.environment;
  const deleteImage = useLocalAction('localDeleteImage');
  const [confirmDeleteOf, setConfirmDeleteOf] = useState<string | null>(null);
  const confirmingDelete = confirmDeleteOf !== null && confirmDeleteOf === id;

  if (!data) {
    return props.error ? (
      <p className="hint-danger viewer-detail" role="alert">
        {props.error.message}
      </p>
    ) : null;
  }
  const { image, turn } = data;
  return (
    <div className="viewer-detail">
      <CullBar image={image} onMark={props.onMark} />
      <label className="toggle small" title={lt('advanceHint')}>
        <input type="checkbox" data-testid="viewer-advance" checked={advance} onChange={(e) => setAdvance(e.target.checked)} />
        {lt('advance')}
      </label>
      <div className="row-gap wrap">
        <button type="button" className="btn btn-sm" data-testid="export" onClick={() => exportImage.mutate(image.id)}>
          {t('viewer.export')}
        </button>
        <button type="button" className="btn btn-sm" onClick={() => addReferences([image.id])}>
          {t('gallery.useAsReference')}
        </button>
        <button
          type="button"
          className="btn btn-sm"
          data-testid="viewer-recall"
          onClick={() => {
            recall(turn.request, turn.referenceImageIds, { sessionId: turn.sessionId, serviceSessionId: turn.serviceSessionId });
            close();
          }}
        >
          {t('turn.recall')}
        </button>
        <CopyAsCode turn={turn} />
        {environment === 'local' && !confirmingDelete ? (
          <button type="button" className="btn btn-sm btn-ghost" data-testid="delete-on-service" onClick={() => setConfirmDeleteOf(image.id)}>
            {t('viewer.deleteOnService')}
          </button>
        ) : null}
      </div>
      {environment === 'local' && confirmingDelete ? (
        <DeleteConfirm
          pending={deleteImage.isPending}
          onConfirm={() => deleteImage.mutate({ imageId: image.id }, { onSuccess: () => setConfirmDeleteOf(null) })}
          onKeep={() => setConfirmDeleteOf(null)}
        />
      ) : null}
      {deleteImage.isSuccess && deleteImage.variables?.imageId === image.id ? (
        <p className="muted small" role="status" data-testid="delete-done">
          {t('viewer.deleted')}
        </p>
      ) : null}
      {exportImage.data?.path ? <p className="muted small">{t('viewer.exported', { path: exportImage.data.path })}</p> : null}
      {props.markError ? <p className="hint-danger" role="alert">{props.markError.message}</p> : null}
      <MetaPanel detail={data} sessionTitle={session.data?.title ?? null} onOpen={(imageId) => open([imageId], 0)} />
    </div>
  );
}

/** Deleting cannot be undone on the service: ask once, saying what goes away. */
function DeleteConfirm({ pending, onConfirm, onKeep }: { pending: boolean; onConfirm: () => void; onKeep: () => void }) {
  const t = useText(appText);
  return (
    <div className="cancel-confirm" role="alertdialog" aria-label={t('viewer.deleteOnService')} data-testid="delete-confirm">
      <p>{t('viewer.deleteExplain')}</p>
      <div className="row-gap">
        <button type="button" className="btn btn-danger btn-sm" data-testid="confirm-delete" disabled={pending} onClick={onConfirm}>
          {t('viewer.deleteConfirm')}
        </button>
        <button type="button" className="btn btn-ghost btn-sm" onClick={onKeep}>
          {t('viewer.keep')}
        </button>
      </div>
    </div>
  );
}
