// The Local service tab's request list: the service's request ledger, newest first, searchable by request id,
// status, route or error code; an entry opens to its bodies, credits and the deliveries it caused.
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { LocalRequestView } from '../../../src-shared/ipc/local-console.ts';
import { useFormats } from '../../i18n/format.ts';
import { useText } from '../../i18n/text.ts';
import { useAppStore } from '../../lib/app-store.ts';
import { call } from '../../lib/desktop.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { ErrorLine } from '../../ui/ErrorLine.tsx';
import { requestLogText } from './request-log-text.ts';
import { filterOfSearch, type RequestFilter } from './request-search.ts';
import './request-log.css';

const PAGE_SIZE = 50;

function requestsQuery(filter: RequestFilter) {
  return infiniteQueryOptions({
    queryKey: queryKeys.localRequests(filter),
    queryFn: ({ pageParam }) => call('localRequests', { ...filter, limit: PAGE_SIZE, ...(pageParam ? { cursor: pageParam } : {}) }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    refetchInterval: 5_000,
  });
}

function Body(props: { label: string; body: { text: string; cut: boolean } }) {
  const t = useText(requestLogText);
  return (
    <div>
      <div className="field-label">
        {props.label} {props.body.cut ? <span className="muted small">{t('cut')}</span> : null}
      </div>
      <pre className="request-body">{props.body.text || '—'}</pre>
    </div>
  );
}

function RequestDetail({ entry }: { entry: LocalRequestView }) {
  const t = useText(requestLogText);
  return (
    <div className="request-detail" data-testid="request-detail">
      <div className="muted small">
        {t('key')} <code>{entry.key_id ?? '—'}</code> · {t('turn')} <code>{entry.turn_id ?? '—'}</code> · {t('credits')}{' '}
        <span data-testid="request-credits">{t('creditsLine', entry.credits)}</span>
      </div>
      <Body label={t('requestBody')} body={entry.request_body} />
      <Body label={t('responseBody')} body={entry.response_body} />
      <div className="field-label">{t('deliveries')}</div>
      {entry.deliveries.length === 0 ? (
        <span className="muted small">{t('noDeliveries')}</span>
      ) : (
        <ul className="pack-list">
          {entry.deliveries.map((d) => (
            <li key={d.delivery_id} className="small">
              <code>{d.delivery_id}</code> {t('delivery', { event: d.event ?? '?', outcome: d.outcome ?? '?', attempts: d.attempts })}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function RequestRow({ entry, open, onToggle }: { entry: LocalRequestView; open: boolean; onToggle: () => void }) {
  const t = useText(requestLogText);
  const formats = useFormats();
  return (
    <li className="pack-row" data-testid="request-row" data-request-id={entry.request_id}>
      <button type="button" className="request-summary" aria-expanded={open} onClick={onToggle}>
        <span className="muted">{formats.dateTimeSeconds(entry.at * 1000)}</span>
        <code>{entry.request_id}</code>
        <span>
          {entry.method} {entry.path}
        </span>
        <strong className={entry.status >= 400 ? 'hint-danger' : undefined}>{entry.status}</strong>
        {entry.error_code ? <code>{entry.error_code}</code> : null}
        <span className="muted">{t('durationMs', { ms: entry.duration_ms })}</span>
      </button>
      {open ? <RequestDetail entry={entry} /> : null}
    </li>
  );
}

export function RequestLogCard() {
  const t = useText(requestLogText);
  const [search, setSearch] = useState('');
  const [openId, setOpenId] = useState<string | null>(null);
  // An error card's "look this request up" (lib/app-store.ts): search for its id once, then let the user type.
  const lookup = useAppStore((s) => s.requestLookup);
  const lookUpRequest = useAppStore((s) => s.lookUpRequest);
  const [takenLookup, setTakenLookup] = useState<string | null>(null);
  if (lookup !== takenLookup) {
    setTakenLookup(lookup);
    if (lookup !== null) setSearch(lookup);
  }
  useEffect(() => {
    if (lookup !== null) lookUpRequest(null);
  }, [lookup, lookUpRequest]);
  const filter = filterOfSearch(search);
  const requests = useInfiniteQuery({ ...requestsQuery(filter ?? {}), enabled: filter !== null });
  // A search that can match nothing shows nothing (not the unfiltered list the disabled query would keep).
  const entries = filter === null ? [] : (requests.data?.pages.flatMap((page) => page.requests) ?? []);
  return (
    <section className="card card-wide" data-testid="local-requests">
      <h3 className="card-title">{t('title')}</h3>
      <input
        type="search"
        aria-label={t('search')}
        placeholder={t('searchHint')}
        data-testid="request-search"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      {filter === null ? <p className="hint-danger">{t('searchInvalid')}</p> : null}
      {filter !== null && requests.isSuccess && entries.length === 0 ? <p className="muted">{t('empty')}</p> : null}
      <ul className="pack-list">
        {entries.map((entry) => (
          <RequestRow
            key={entry.request_id}
            entry={entry}
            open={openId === entry.request_id || entries.length === 1}
            onToggle={() => setOpenId(openId === entry.request_id ? null : entry.request_id)}
          />
        ))}
      </ul>
      {filter !== null && requests.hasNextPage ? (
        <button type="button" className="btn btn-sm" onClick={() => void requests.fetchNextPage()}>
          {t('older')}
        </button>
      ) : null}
      <ErrorLine error={requests.error} />
    </section>
  );
}
