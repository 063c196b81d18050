// The reference tray: gallery images dragged here are reused as ref_image_ids. The model's limit is shown
// live; a reference the service reported missing is marked and can be removed. Files from outside the app
// cannot be references, because the service has no upload endpoint (spec §4.1 rule 3): a file dropped here
// goes to the compose panel's recall by drop (./drop-recall.ts), which recalls an exported image's settings
// or says why nothing changed.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type DragEvent } from 'react';
import type { ConcreteModelId } from '../../../src-shared/catalog.ts';
import { MODELS } from '../../../src-shared/catalog.ts';
import { appText, useText } from '../../i18n/text.ts';
import { imageUrl } from '../../lib/desktop.ts';
import { imageQuery } from '../../lib/library-queries.ts';
import { IMAGE_DRAG_TYPE, readDraggedImageIds } from '../../lib/image-drag.ts';
import { useComposeStore } from './store.ts';

function TrayItem({ id, flaggedMissing }: { id: string; flaggedMissing: boolean }) {
  const t = useText(appText);
  const remove = useComposeStore((s) => s.removeReference);
  const detail = useQuery({ ...imageQuery(id), retry: false });
  const missing = flaggedMissing || detail.data?.image.missing === true;
  return (
    <li className={`tray-item ${missing ? 'tray-item-missing' : ''}`} data-testid="reference-item" data-image-id={id} data-missing={missing}>
      <img src={imageUrl('thumb', id)} alt={t('tray.referenceAlt', { id })} draggable={false} />
      {missing ? <span className="tray-missing-label">{t('tray.missing')}</span> : null}
      <button type="button" className="tray-remove" aria-label={t('tray.remove', { id })} onClick={() => remove(id)}>
        ×
      </button>
    </li>
  );
}

export function ReferenceTray({ model }: { model: ConcreteModelId | null }) {
  const t = useText(appText);
  const ids = useComposeStore((s) => s.draft.referenceIds);
  const missing = useComposeStore((s) => s.missingReferenceIds);
  const notice = useComposeStore((s) => s.trayNotice);
  const add = useComposeStore((s) => s.addReferences);
  const clear = useComposeStore((s) => s.clearReferences);
  const setNotice = useComposeStore((s) => s.setTrayNotice);
  const [over, setOver] = useState(false);
  const noticeRef = useRef<HTMLParagraphElement>(null);
  // A notice after a drop on the panel is shown where the designer can read it.
  useEffect(() => {
    noticeRef.current?.scrollIntoView({ block: 'nearest' });
  }, [notice]);
  const limit = model ? MODELS[model].referenceLimit : null;
  const overLimit = limit !== null && ids.length > limit;

  const onDragOver = (e: DragEvent) => {
    const types = Array.from(e.dataTransfer.types);
    if (types.includes(IMAGE_DRAG_TYPE) || types.includes('Files')) {
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
      setOver(true);
    }
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const dragged = readDraggedImageIds(e.dataTransfer);
    if (dragged.length > 0) {
      e.stopPropagation();
      add(dragged);
      return;
    }
    // Files bubble up to the compose panel's recall by drop; with none to read, say why nothing happened.
    if (e.dataTransfer.files.length === 0 && Array.from(e.dataTransfer.types).includes('Files')) {
      setNotice({ kind: 'refused_files', count: 1 });
    }
  };

  return (
    <section
      className={`reference-tray ${over ? 'tray-over' : ''} ${overLimit ? 'tray-over-limit' : ''}`}
      data-testid="reference-tray"
      aria-label={t('tray.title')}
      onDragOver={onDragOver}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <div className="tray-head">
        <span className="field-label">{t('tray.title')}</span>
        <span className={`counter ${overLimit ? 'counter-over' : ''}`} data-testid="tray-limit">
          {limit !== null ? t('tray.limit', { count: ids.length, limit, model }) : t('tray.count', { count: ids.length })}
        </span>
        {ids.length > 0 ? (
          <button type="button" className="btn btn-ghost btn-xs" onClick={clear}>
            {t('tray.clear')}
          </button>
        ) : null}
      </div>
      {ids.length === 0 ? (
        <p className="tray-empty">{t('tray.empty')}</p>
      ) : (
        <ul className="tray-list">
          {ids.map((id) => (
            <TrayItem key={id} id={id} flaggedMissing={missing.includes(id)} />
          ))}
        </ul>
      )}
      {notice ? (
        <p
          className={`tray-notice ${['refused_files', 'no_generation_data', 'damaged_generation_data', 'oversized_generation_data', 'reader_unavailable'].includes(notice.kind) ? 'tray-notice-refused' : ''}`}
          role="status"
          data-testid="tray-notice"
          data-kind={notice.kind}
          ref={noticeRef}
        >
          {t(`tray.notice.${notice.kind}`, { count: notice.count, name: notice.name ?? '' })}
          {notice.kind === 'recalled' && notice.missing ? ` ${t('tray.notice.recalledMissing', { count: notice.missing })}` : null}
        </p>
      ) : null}
    </section>
  );
}
