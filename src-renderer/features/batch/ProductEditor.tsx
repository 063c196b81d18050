// Add or edit a product: SKU, name, prompt, notes and reference images. References are library images: dragged
// from the library pane beside the form (the gallery's own drag type, lib/image-drag.ts), or selected
// there and added with a button (the keyboard's way). The count is shown against the tightest model limit of
// the chosen shot list. A modal dialog like the export dialog: focus moves in, Tab stays in, Esc closes.
import { useId, useState, type DragEvent, type FormEvent } from 'react';
import { MAX_REFERENCE_IMAGES } from '../../../src-shared/catalog.ts';
import type { Product, ShotList } from '../../../src-shared/ipc/batch.ts';
import { PRODUCT_NAME_MAX, PRODUCT_NOTES_MAX, PRODUCT_PROMPT_MAX, SKU_MAX } from '../../../src-shared/limits.ts';
import { useText } from '../../i18n/text.ts';
import { imageUrl } from '../../lib/desktop.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { Field } from '../../ui/Field.tsx';
import { IMAGE_DRAG_TYPE, readDraggedImageIds } from '../../lib/image-drag.ts';
import { FilterBar, GalleryBody } from '../gallery/index.ts';
import { useGalleryStore } from '../../lib/library-state/store.ts';
import { batchText, type BatchT } from './i18n.ts';
import { ErrorLine } from '../../ui/ErrorLine.tsx';
import { useProducts, useSaveProduct } from './queries.ts';
import { isOverLimit, referenceLimit } from './references.ts';
import { useBatchStore } from './store.ts';

type Notice = { kind: 'full' | 'duplicate' | 'files'; count: number } | null;

function LibraryPane({ onAdd }: { onAdd: (ids: string[]) => void }) {
  const t = useText(batchText);
  const filters = useGalleryStore((s) => s.filters);
  const selected = useGalleryStore((s) => s.selected);
  const headingId = useId();
  return (
    <aside className="batch-library" aria-labelledby={headingId} data-testid="product-library">
      <div className="batch-library-head">
        <h3 className="batch-subtitle" id={headingId}>
          {t('libraryPane')}
        </h3>
        <button type="button" className="btn btn-xs btn-accent-soft" data-testid="product-add-selected" disabled={selected.length === 0} onClick={() => onAdd(selected)}>
          {t('addSelected', { count: selected.length })}
        </button>
      </div>
      <FilterBar />
      <div className="batch-library-grid">
        <GalleryBody filters={filters} view="gallery" />
      </div>
    </aside>
  );
}

/** The references being edited, and what the last add did (how many did not fit or were already there). */
function useReferences(initial: string[]) {
  const [refs, setRefs] = useState<string[]>(initial);
  const [notice, setNotice] = useState<Notice>(null);
  const add = (ids: string[]) => {
    const existing = new Set(refs);
    const fresh = [...new Set(ids)].filter((r) => !existing.has(r));
    const room = Math.max(0, MAX_REFERENCE_IMAGES - refs.length);
    const accepted = fresh.slice(0, room);
    setRefs([...refs, ...accepted]);
    setNotice(fresh.length > accepted.length ? { kind: 'full', count: fresh.length - accepted.length } : fresh.length < ids.length ? { kind: 'duplicate', count: ids.length - fresh.length } : null);
  };
  const remove = (id: string) => setRefs(refs.filter((r) => r !== id));
  return { refs, notice, add, remove, refuseFiles: () => setNotice({ kind: 'files', count: 1 }) };
}

type References = ReturnType<typeof useReferences>;

function noticeText(notice: NonNullable<Notice>, t: BatchT): string {
  if (notice.kind === 'full') return t('referencesFull', { count: notice.count });
  if (notice.kind === 'duplicate') return t('referencesDuplicate', { count: notice.count });
  return t('referencesFiles');
}

/** The drop zone of reference images: library images dragged in, counted against the shot list's tightest limit. */
function ReferenceDrop({ references, prompt, shotList }: { references: References; prompt: string; shotList: ShotList | null }) {
  const t = useText(batchText);
  const [over, setOver] = useState(false);
  const { refs, notice } = references;
  const limit = referenceLimit(prompt, refs.length, shotList?.shots ?? null);
  const overLimit = isOverLimit(refs.length, limit);

  const onDragOver = (e: DragEvent) => {
    const types = Array.from(e.dataTransfer.types);
    if (types.includes(IMAGE_DRAG_TYPE) || types.includes('Files')) {
      e.preventDefault();
      e.dataTransfer.dropEffect = types.includes(IMAGE_DRAG_TYPE) ? 'copy' : 'none';
      setOver(true);
    }
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const ids = readDraggedImageIds(e.dataTransfer);
    if (ids.length > 0) references.add(ids);
    else if (Array.from(e.dataTransfer.types).includes('Files')) references.refuseFiles();
  };

  return (
    <section
      className={`reference-tray batch-refs-drop ${over ? 'tray-over' : ''} ${overLimit ? 'tray-over-limit' : ''}`}
      aria-label={t('referencesDropLabel')}
      data-testid="product-references"
      onDragOver={onDragOver}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <div className="tray-head">
        <span className="field-label">{t('references')}</span>
        <span className={`counter ${overLimit ? 'counter-over' : ''}`} data-testid="product-refs-limit">
          {limit.kind === 'unknown' ? t('refsCount', { count: refs.length }) : t('refsLimit', { count: refs.length, limit: limit.limit })}
          {limit.kind === 'limit' ? ` · ${limit.model}` : ''}
        </span>
      </div>
      {refs.length === 0 ? (
        <p className="tray-empty">{t('referencesDrop')}</p>
      ) : (
        <ul className="tray-list">
          {refs.map((ref) => (
            <li key={ref} className="tray-item" data-testid="product-reference" data-image-id={ref}>
              <img src={imageUrl('thumb', ref)} alt={t('referenceAlt', { id: ref })} draggable={false} />
              <button type="button" className="tray-remove" aria-label={t('removeReference', { id: ref })} onClick={() => references.remove(ref)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {notice ? (
        <p className={`tray-notice ${notice.kind !== 'duplicate' ? 'tray-notice-refused' : ''}`} role="status">
          {noticeText(notice, t)}
        </p>
      ) : null}
    </section>
  );
}

interface ProductText {
  sku: string;
  name: string;
  prompt: string;
  notes: string;
}

/** SKU, name, prompt (with its counter) and notes. */
function ProductFields({ text, onChange }: { text: ProductText; onChange: (change: Partial<ProductText>) => void }) {
  const t = useText(batchText);
  const id = useId();
  return (
    <>
      <div className="batch-editor-row">
        <Field id={`${id}-sku`} label={t('sku')} hint={t('skuHint')}>
          <input id={`${id}-sku`} data-testid="product-sku" className="mono" required maxLength={SKU_MAX} value={text.sku} autoComplete="off" spellCheck={false} aria-describedby={`${id}-sku-hint`} onChange={(e) => onChange({ sku: e.target.value })} />
        </Field>
        <Field id={`${id}-name`} label={t('name')}>
          <input id={`${id}-name`} data-testid="product-name" required maxLength={PRODUCT_NAME_MAX} value={text.name} onChange={(e) => onChange({ name: e.target.value })} />
        </Field>
      </div>
      <Field id={`${id}-prompt`} label={t('prompt')} hint={t('promptHint')} aside={<span className="counter">{t('counter', { count: text.prompt.length, max: PRODUCT_PROMPT_MAX })}</span>}>
        <textarea id={`${id}-prompt`} data-testid="product-prompt" className="batch-editor-prompt" maxLength={PRODUCT_PROMPT_MAX} value={text.prompt} aria-describedby={`${id}-prompt-hint`} onChange={(e) => onChange({ prompt: e.target.value })} />
      </Field>
      <Field id={`${id}-notes`} label={t('notes')}>
        <textarea id={`${id}-notes`} data-testid="product-notes" rows={2} maxLength={PRODUCT_NOTES_MAX} value={text.notes} onChange={(e) => onChange({ notes: e.target.value })} />
      </Field>
    </>
  );
}

function EditorForm({ product, shotList, close }: { product: Product | null; shotList: ShotList | null; close: () => void }) {
  const t = useText(batchText);
  const id = useId();
  const save = useSaveProduct();
  const [text, setText] = useState<ProductText>({ sku: product?.sku ?? '', name: product?.name ?? '', prompt: product?.prompt ?? '', notes: product?.notes ?? '' });
  const references = useReferences(product?.referenceImageIds ?? []);
  const [libraryShown, setLibraryShown] = useState(true);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (save.isPending) return;
    save.mutate({ ...(product ? { id: product.id } : {}), ...text, referenceImageIds: references.refs }, { onSuccess: close });
  };

  const libraryToggle = (
    <button type="button" className="btn btn-ghost btn-sm" aria-pressed={libraryShown} onClick={() => setLibraryShown(!libraryShown)}>
      {libraryShown ? t('hideLibrary') : t('showLibrary')}
    </button>
  );
  const footer = (
    <>
      <button type="button" className="btn btn-ghost" onClick={close} disabled={save.isPending}>
        {t('cancel')}
      </button>
      <button type="submit" form={`${id}-form`} className="btn btn-primary" data-testid="product-save" disabled={save.isPending}>
        {save.isPending ? t('saving') : t('save')}
      </button>
    </>
  );
  // Esc closes from anywhere (focus may be on the page when a button it was on got disabled), unless a control
  // inside used it first (the library grid clears its selection with Esc): the Dialog's rule.
  return (
    <Dialog
      title={product ? t('editProductTitle', { sku: product.sku }) : t('newProductTitle')}
      testId="product-editor"
      className={`batch-editor ${libraryShown ? 'batch-editor-wide' : ''}`}
      closeLabel={t('close')}
      busy={save.isPending}
      onClose={close}
      headActions={libraryToggle}
      footer={footer}
    >
      <div className="batch-editor-body">
        <form className="batch-editor-form" onSubmit={submit} id={`${id}-form`}>
          <ProductFields text={text} onChange={(change) => setText({ ...text, ...change })} />
          <ReferenceDrop references={references} prompt={text.prompt} shotList={shotList} />
          <ErrorLine error={save.error} testId="product-save-error" showCode />
        </form>
        {libraryShown ? <LibraryPane onAdd={references.add} /> : null}
      </div>
    </Dialog>
  );
}

export function ProductEditor({ shotList }: { shotList: ShotList | null }) {
  const editor = useBatchStore((s) => s.editor);
  const closeEditor = useBatchStore((s) => s.closeEditor);
  const products = useProducts();
  if (!editor) return null;
  const product = editor.kind === 'edit' ? (products.data?.find((p) => p.id === editor.productId) ?? null) : null;
  if (editor.kind === 'edit' && !product) return null;
  return <EditorForm key={editor.kind === 'edit' ? editor.productId : 'new'} product={product} shotList={shotList} close={closeEditor} />;
}
