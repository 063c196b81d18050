// The viewer's details of one image: what was asked (prompt, model, ratio, resolution, quality, purpose, n),
// when and where (date, session, and a Catalog image's product and shot), what it cost (charged vs estimated), the
// request id and warnings, the references it used and the generations that used it (thumbnails that open those
// images), and its boards.
import type { ReactNode } from 'react';
import { PURPOSES } from '../../../src-shared/catalog.ts';
import type { ImageRecord } from '../../../src-shared/ipc/generation.ts';
import type { ImageDetail } from '../../../src-shared/ipc/library.ts';
import { useFormats } from '../../i18n/format.ts';
import { appText, useText } from '../../i18n/text.ts';
import { imageUrl } from '../../lib/desktop.ts';
import { cellName } from '../../lib/library-state/store.ts';
import { ClampedText } from '../../ui/ClampedText.tsx';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { loupeText } from './i18n.ts';
import { requestFacts } from './requestFacts.ts';

export function MiniThumbs({ images, onOpen, testId }: { images: ImageRecord[]; onOpen: (id: string) => void; testId?: string }) {
  const t = useText(appText);
  return (
    <ul className="mini-thumbs" data-testid={testId}>
      {images.map((im) => (
        <li key={im.id}>
          <button type="button" className="mini-thumb" onClick={() => onOpen(im.id)} aria-label={t('gallery.openImage', { id: im.id })} title={im.prompt} data-image-id={im.id}>
            <img src={imageUrl('thumb', im.id)} alt="" />
            {im.missing ? <span className="thumb-flag">{t('tray.missing')}</span> : null}
          </button>
        </li>
      ))}
    </ul>
  );
}

function Fact({ field, label, children, value }: { field: string; label: string; children: ReactNode; value?: string | number }) {
  return (
    <div className="meta-row" data-field={field} data-value={value}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** Where a Catalog batch's image belongs: "SKU-001 · main" and the product's name, as its gallery tile says. */
function CatalogPlace({ place, label }: { place: NonNullable<ImageRecord['catalog']>; label: string }) {
  const name = cellName(place.sku, place.shot);
  return (
    <Fact field="catalog" label={label} value={name}>
      <span data-testid="viewer-catalog" data-sku={place.sku} data-shot={place.shot}>
        {name}
      </span>
      {place.productName ? <span className="muted"> · {place.productName}</span> : null}
    </Fact>
  );
}

export function MetaPanel({ detail, sessionTitle, onOpen }: { detail: ImageDetail; sessionTitle: string | null; onOpen: (id: string) => void }) {
  const t = useText(appText);
  const lt = useText(loupeText);
  const language = useLanguage();
  const format = useFormats();
  const { image, turn } = detail;
  const f = requestFacts(turn);
  const usedBy = detail.usedIn.flatMap((u) => u.images);
  const boards = detail.boards ?? [];
  return (
    <section className="viewer-meta" data-testid="viewer-meta" aria-label={lt('meta')}>
      <h3 className="viewer-h">{lt('prompt')}</h3>
      <ClampedText text={f.prompt || t('viewer.noPrompt')} lines={6} className="viewer-prompt" testId="viewer-prompt" />
      <dl className="facts meta-facts">
        <Fact field="model" label={lt('model')} value={f.model}>
          {f.requestedAuto ? lt('modelAuto', { model: f.model }) : f.model}
        </Fact>
        <Fact field="ratio" label={lt('ratio')} value={f.ratio}>
          {f.ratioDefaulted ? lt('ratioDefault', { ratio: f.ratio }) : f.ratio}
        </Fact>
        <Fact field="resolution" label={lt('resolution')} value={f.resolution}>
          {f.resolution} · {lt('pixels', { width: image.width, height: image.height })}
        </Fact>
        <Fact field="quality" label={lt('quality')} value={f.quality ?? ''}>
          {f.quality ? t(`quality.${f.quality as 'low' | 'medium' | 'high'}`) : <span className="muted">{lt('qualityNone')}</span>}
        </Fact>
        <Fact field="purpose" label={lt('purpose')} value={f.purpose}>
          {PURPOSES[f.purpose]?.label[language] ?? f.purpose}
        </Fact>
        <Fact field="n" label={lt('count')} value={f.n}>
          {turn.images.length === f.n ? f.n : lt('countProduced', { n: f.n, produced: turn.images.length })}
        </Fact>
        <Fact field="date" label={lt('date')} value={image.createdAt}>
          <time dateTime={new Date(image.createdAt).toISOString()}>{format.dateTimeSeconds(image.createdAt)}</time>
        </Fact>
        <Fact field="session" label={lt('session')} value={sessionTitle ?? ''}>
          {sessionTitle ?? '…'}
        </Fact>
        {image.catalog ? <CatalogPlace place={image.catalog} label={lt('catalogPlace')} /> : null}
        <Fact field="credits" label={lt('credits')} value={`${turn.creditsCharged ?? ''}/${turn.estimate.total}`}>
          <span data-testid="viewer-credits" data-charged={turn.creditsCharged ?? ''} data-estimated={turn.estimate.total}>
            {turn.creditsCharged !== null
              ? lt('creditsValue', { charged: turn.creditsCharged, estimated: turn.estimate.total })
              : lt('creditsUnknown', { estimated: turn.estimate.total })}
          </span>
        </Fact>
        <Fact field="request-id" label={lt('requestId')} value={turn.requestId ?? ''}>
          {turn.requestId ? (
            <span className="meta-code">
              <code>{turn.requestId}</code>
              <CopyButton text={turn.requestId} />
            </span>
          ) : (
            '—'
          )}
        </Fact>
        <Fact field="image-id" label={lt('imageId')} value={image.id}>
          <code>{image.id}</code>
        </Fact>
        <Fact field="warnings" label={lt('warnings')} value={turn.warnings.length}>
          {turn.warnings.length > 0 ? (
            <ul className="meta-warnings">
              {turn.warnings.map((w, i) => (
                <li key={`${w.feature}-${i}`} data-feature={w.feature}>
                  {w.details}
                </li>
              ))}
            </ul>
          ) : (
            <span className="muted">{lt('noWarnings')}</span>
          )}
        </Fact>
        <Fact field="boards" label={lt('boards')} value={boards.length}>
          {boards.length > 0 ? (
            <ul className="meta-boards" data-testid="viewer-boards">
              {boards.map((b) => (
                <li key={b.id} className="badge" data-board-id={b.id}>
                  {b.name}
                </li>
              ))}
            </ul>
          ) : (
            <span className="muted">{lt('noBoards')}</span>
          )}
        </Fact>
      </dl>
      <h3 className="viewer-h" data-testid="viewer-references" data-count={detail.references.length}>
        {t('viewer.references', { count: detail.references.length })}
      </h3>
      {detail.references.length > 0 ? <MiniThumbs images={detail.references} onOpen={onOpen} testId="viewer-reference-thumbs" /> : <p className="muted small">{t('viewer.noReferences')}</p>}
      <h3 className="viewer-h" data-testid="viewer-used-in" data-count={detail.usedIn.length}>
        {t('viewer.usedIn', { count: detail.usedIn.length })}
      </h3>
      {usedBy.length > 0 ? <MiniThumbs images={usedBy} onOpen={onOpen} testId="viewer-used-by-thumbs" /> : <p className="muted small">{t('viewer.notUsed')}</p>}
    </section>
  );
}
