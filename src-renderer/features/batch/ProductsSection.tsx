// Products of the catalog: a table with a checkbox per row (every product is in the batch unless unticked),
// the reference count against the tightest model limit of the chosen shot list ("3 / 14"), edit and delete
// (confirmed in the row), CSV import (all or nothing; problems listed by line and column) and export. A long table
// draws only the rows near the view (windowed against its column, as the job list): 1,000 products in the document
// made every frame of the board above them lay out and paint the whole column.
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useId, useRef, useState, type ChangeEvent } from 'react';
import type { CsvProblem, Product, ShotList } from '../../../src-shared/ipc/batch.ts';
import { useText } from '../../i18n/text.ts';
import { imageUrl } from '../../lib/desktop.ts';
import { LIST_NEAR, LIST_WHOLE_UP_TO, overscanFor, useColumnScroll } from './column-scroll.ts';
import { csvProblemText } from './csv-problems.ts';
import { fileBase64 } from './file-bytes.ts';
import { ErrorLine, ipcErrorOf } from '../../ui/ErrorLine.tsx';
import { BatchCard, TableHead } from './parts.tsx';
import { batchText } from './i18n.ts';
import { useDeleteProduct, useExportProducts, useImportProducts, useProducts } from './queries.ts';
import { isOverLimit, referenceLimit } from './references.ts';
import { useBatchStore } from './store.ts';

function ReferenceCount({ product, shotList }: { product: Product; shotList: ShotList | null }) {
  const t = useText(batchText);
  const count = product.referenceImageIds.length;
  const limit = referenceLimit(product.prompt, count, shotList?.shots ?? null);
  const over = isOverLimit(count, limit);
  const title =
    limit.kind === 'limit'
      ? t('refsLimitTitle', { count, model: limit.model, shot: limit.shot, limit: limit.limit })
      : limit.kind === 'none'
        ? t('refsAutoNone', { count, limit: limit.limit })
        : t('refsNoListTitle');
  return (
    <span className={`counter batch-refs ${over ? 'counter-over' : ''}`} title={title} data-testid="product-refs" data-count={count} data-limit={limit.kind === 'limit' ? limit.limit : ''}>
      {limit.kind === 'unknown' ? t('refsCount', { count }) : t('refsLimit', { count, limit: limit.limit })}
      <span className="sr-only">{` ${title}`}</span>
    </span>
  );
}

const ROW_ESTIMATE = 53;
const COLUMNS = 6;

interface RowProps {
  product: Product;
  shotList: ShotList | null;
  included: boolean;
  /** The row's place and the virtualiser's measure. */
  index: number;
  measure: (el: HTMLTableRowElement | null) => void;
}

// Memoised: the table re-renders when the board above it changes height (its start in the column moves); its rows do not.
const ProductRow = memo(function ProductRow({ product, shotList, included, index, measure }: RowProps) {
  const t = useText(batchText);
  const setIncluded = useBatchStore((s) => s.setIncluded);
  const openEditor = useBatchStore((s) => s.openEditor);
  const remove = useDeleteProduct();
  const [confirming, setConfirming] = useState(false);
  return (
    <tr ref={measure} data-index={index} data-testid="product-row" data-sku={product.sku} data-product-id={product.id} className={included ? '' : 'batch-row-off'}>
      <td className="batch-check">
        <input type="checkbox" checked={included} aria-label={t('selectProduct', { sku: product.sku })} onChange={(e) => setIncluded([product.id], e.target.checked)} data-testid="product-include" />
      </td>
      <td className="mono batch-sku">{product.sku}</td>
      <td className="batch-name">
        {product.referenceImageIds[0] ? <img className="batch-product-thumb" src={imageUrl('thumb', product.referenceImageIds[0])} alt="" loading="lazy" draggable={false} /> : null}
        {product.name}
        {included ? null : (
          <span className="batch-off-tag" data-testid="product-not-in-run">
            {t('notInRun')}
          </span>
        )}
      </td>
      <td className="batch-prompt muted" title={product.prompt}>
        <span className="batch-prompt-text">{product.prompt}</span>
      </td>
      <td className="batch-num">
        <ReferenceCount product={product} shotList={shotList} />
      </td>
      <td className="batch-actions">
        {confirming ? (
          <span className="batch-confirm" role="group" aria-label={t('deleteProduct', { sku: product.sku })}>
            <span className="small">{t('deleteConfirm', { sku: product.sku })}</span>
            <button type="button" className="btn btn-xs btn-danger" data-testid="product-delete-confirm" disabled={remove.isPending} onClick={() => remove.mutate({ id: product.id }, { onSuccess: () => setConfirming(false) })}>
              {t('delete')}
            </button>
            <button type="button" className="btn btn-xs" onClick={() => setConfirming(false)}>
              {t('keep')}
            </button>
            <ErrorLine error={remove.error} testId="batch-error" showCode />
          </span>
        ) : (
          <>
            <button type="button" className="btn btn-xs" data-testid="product-edit" aria-label={t('editProduct', { sku: product.sku })} onClick={() => openEditor({ kind: 'edit', productId: product.id })}>
              {t('edit')}
            </button>
            <button type="button" className="btn btn-ghost btn-xs" data-testid="product-delete" aria-label={t('deleteProduct', { sku: product.sku })} onClick={() => setConfirming(true)}>
              {t('delete')}
            </button>
          </>
        )}
      </td>
    </tr>
  );
});

function ImportResult({ error, fileName }: { error: unknown; fileName: string }) {
  const t = useText(batchText);
  const ipc = ipcErrorOf(error);
  if (!ipc) return null;
  const problems = ipc.code === 'product_csv_invalid' ? ((ipc.details as { problems?: CsvProblem[] } | undefined)?.problems ?? []) : [];
  if (problems.length === 0) return <ErrorLine error={error} testId="product-import-error" showCode />;
  return (
    <div className="batch-problems" role="alert" data-testid="product-import-error" data-code={ipc.code}>
      <p>
        <strong>{t('importFailed', { count: problems.length, file: fileName })}</strong> {ipc.message}
      </p>
      <ul data-testid="product-import-problems" tabIndex={0} aria-label={t('importProblems')}>
        {problems.map((p, i) => (
          <li key={i} data-line={p.line} data-column={p.column}>
            {csvProblemText(p, t)}
          </li>
        ))}
      </ul>
    </div>
  );
}

function ImportExportBar() {
  const t = useText(batchText);
  const id = useId();
  const importer = useImportProducts();
  const exporter = useExportProducts();
  const [fileName, setFileName] = useState('');
  const [readError, setReadError] = useState<string | null>(null);

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    // Cleared so choosing the same file again (after fixing it) fires change again.
    e.target.value = '';
    if (!file) return;
    setFileName(file.name);
    setReadError(null);
    exporter.reset();
    // The bytes, not file.text(): main reads them in the encoding they were saved in (GBK, UTF-16, UTF-8).
    let bytes: string;
    try {
      bytes = await fileBase64(file);
    } catch (err) {
      setReadError(t('importReadFailed', { message: err instanceof Error ? err.message : String(err) }));
      return;
    }
    importer.mutate({ fileBase64: bytes, fileName: file.name.slice(0, 260) });
  };
  const exportProducts = () => {
    importer.reset();
    exporter.mutate({});
  };

  return (
    <div className="stack">
      <div className="row-gap wrap">
        <label className={`btn btn-sm batch-file ${importer.isPending ? 'batch-file-busy' : ''}`} htmlFor={`${id}-import`}>
          {importer.isPending ? t('importing') : t('importCsv')}
          <input
            id={`${id}-import`}
            type="file"
            accept=".csv,.txt,.tsv,text/csv,text/plain,text/tab-separated-values"
            data-testid="product-import"
            className="batch-file-input"
            aria-describedby={`${id}-import-hint`}
            disabled={importer.isPending}
            onChange={(e) => void onFile(e)}
          />
        </label>
        <button type="button" className="btn btn-sm" data-testid="product-export" disabled={exporter.isPending} onClick={exportProducts}>
          {t('exportProducts')}
        </button>
        <span id={`${id}-import-hint`} className="small muted batch-hint">
          {t('importHint')}
        </span>
      </div>
      <div aria-live="polite">
        {importer.data ? (
          <p className="hint-ok" role="status" data-testid="product-import-result" data-created={importer.data.created} data-updated={importer.data.updated}>
            {t('imported', { created: importer.data.created, updated: importer.data.updated })}
            {importer.data.encoding ? (
              <>
                {' '}
                <span data-testid="product-import-encoding" data-encoding={importer.data.encoding} data-separator={importer.data.separator}>
                  {t(importer.data.separator === 'tab' ? 'importReadAsTabs' : 'importReadAs', { encoding: t(`encoding.${importer.data.encoding}`) })}
                </span>
              </>
            ) : null}
          </p>
        ) : null}
        {exporter.data ? (
          <p className="small" role="status" data-testid="product-export-result">
            {exporter.data.file === null ? t('exportCancelled') : t('exportedProducts', { count: exporter.data.count, file: exporter.data.file })}
          </p>
        ) : null}
      </div>
      {readError ? (
        <p className="batch-error" role="alert">
          {readError}
        </p>
      ) : null}
      <ImportResult error={importer.error} fileName={fileName} />
      <ErrorLine error={exporter.error} testId="batch-error" showCode />
    </div>
  );
}

/** An empty row standing for the rows not drawn above or below the view. */
function Spacer({ height }: { height: number }) {
  return height > 0 ? (
    <tr aria-hidden="true" className="batch-spacer">
      <td colSpan={COLUMNS} style={{ height }} />
    </tr>
  ) : null;
}

/** The rows (of a long table those near the view, the others stood for by two spacers), scrolled by the column. */
function ProductRows({ list, shotList, excluded }: { list: Product[]; shotList: ShotList | null; excluded: ReadonlySet<string> }) {
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const { scrollElement, start } = useColumnScroll(bodyRef);
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({ count: list.length, getScrollElement: scrollElement, estimateSize: () => ROW_ESTIMATE, overscan: overscanFor(list.length, LIST_WHOLE_UP_TO, LIST_NEAR), scrollMargin: start, getItemKey: (i) => list[i]?.id ?? i });
  const items = virtualizer.getVirtualItems();
  const above = (items[0]?.start ?? start) - start;
  const below = virtualizer.getTotalSize() - ((items.at(-1)?.end ?? start) - start);
  return (
    <tbody ref={bodyRef}>
      <Spacer height={above} />
      {items.map((item) => {
        const p = list[item.index];
        return p ? <ProductRow key={p.id} product={p} shotList={shotList} included={!excluded.has(p.id)} index={item.index} measure={virtualizer.measureElement} /> : null;
      })}
      <Spacer height={below} />
    </tbody>
  );
}

/** The head's check box: every product in or out of the batch; half-checked when some are. */
function SelectAll({ list, selected }: { list: Product[]; selected: number }) {
  const t = useText(batchText);
  const setIncluded = useBatchStore((s) => s.setIncluded);
  const all = list.length > 0 && selected === list.length;
  // A check box is half-checked only through its DOM property.
  const markSome = (el: HTMLInputElement | null) => {
    if (el) el.indeterminate = selected > 0 && !all;
  };
  const includeAll = (e: ChangeEvent<HTMLInputElement>) => setIncluded(list.map((p) => p.id), e.target.checked);
  return <input type="checkbox" aria-label={t('selectAll')} data-testid="product-select-all" checked={all} ref={markSome} onChange={includeAll} />;
}

export function ProductsSection({ shotList }: { shotList: ShotList | null }) {
  const t = useText(batchText);
  const products = useProducts();
  const excluded = useBatchStore((s) => s.excluded);
  const openEditor = useBatchStore((s) => s.openEditor);
  const list = products.data ?? [];
  const selected = list.filter((p) => !excluded.has(p.id)).length;
  return (
    <BatchCard
      title={t('products')}
      testId="batch-products"
      head={
        <>
          <span className="small muted" data-testid="product-count" data-count={list.length} data-selected={selected}>
            {t('productsCount', { count: list.length, selected })}
          </span>
          <span className="spacer" />
          <button type="button" className="btn btn-sm btn-primary" data-testid="product-add" onClick={() => openEditor({ kind: 'new' })}>
            {t('addProduct')}
          </button>
        </>
      }
    >
      <ImportExportBar />
      <ErrorLine error={products.error} testId="batch-error" showCode />
      {list.length === 0 && products.isSuccess ? (
        <p className="muted small">{t('productsEmpty')}</p>
      ) : list.length > 0 ? (
        <div className="batch-table-scroll batch-products-scroll">
          <table className="table batch-table" aria-label={t('productsTable')}>
            <TableHead check={<SelectAll list={list} selected={selected} />} names={[t('colSku'), t('colName'), t('colPrompt')]} numbers={[t('colRefs')]} actions={t('colActions')} />
            <ProductRows list={list} shotList={shotList} excluded={excluded} />
          </table>
        </div>
      ) : null}
    </BatchCard>
  );
}
