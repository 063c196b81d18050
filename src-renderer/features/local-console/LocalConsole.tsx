// The local service console (Local environment only): account, keys, faults, clock, rate limits, webhook
// and image packs, through main's admin client. The renderer never sees the admin token, a key or a secret.
import { useState, type ReactNode } from 'react';
import { API_SCOPES, type ApiScope } from '../../../src-shared/limits.ts';
import type { LocalConsoleState } from '../../../src-shared/ipc/local-console.ts';
import { useFormats } from '../../i18n/format.ts';
import { appText, useText } from '../../i18n/text.ts';
import type { IpcMethodName } from '../../lib/ipc-types.ts';
import { Badge } from '../../ui/Badge.tsx';
import { ErrorLine } from '../../ui/ErrorLine.tsx';
import { Toggle } from '../../ui/Toggle.tsx';
import { submitWith } from '../../ui/submitWith.ts';
import { useSettings } from '../settings/index.ts';
import { useLocalAction, useLocalStatus } from './queries.ts';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { useLocalConsoleStore } from './store.ts';
import { RequestLogCard } from './RequestLog.tsx';

function Card(props: { title: string; children: ReactNode; testId?: string; wide?: boolean }) {
  return (
    <section className={props.wide ? 'card card-wide' : 'card'} data-testid={props.testId}>
      <h3 className="card-title">{props.title}</h3>
      {props.children}
    </section>
  );
}

interface NumberActionProps {
  id: string;
  label: string;
  action: string;
  initial?: string;
  min: number;
  onAct: (value: number) => void;
  testId?: string;
  actTestId?: string;
  /** The button waits for a number (a value to set, not a count with a default). */
  needsValue?: boolean;
  placeholder?: string;
  narrow?: boolean;
  primary?: boolean;
}

/** A labelled number and the button that acts on it, on one row; Enter in the field acts too. */
function NumberAction(props: NumberActionProps) {
  const [value, setValue] = useState(props.initial ?? '');
  const act = submitWith(() => {
    if (props.needsValue && value === '') return;
    props.onAct(Number(value));
  });
  return (
    <form className="row-gap wrap" onSubmit={act}>
      <label htmlFor={props.id} className="field-label">
        {props.label}
      </label>
      <input id={props.id} data-testid={props.testId} type="number" min={props.min} className={props.narrow ? 'input-narrow' : undefined} placeholder={props.placeholder} value={value} onChange={(e) => setValue(e.target.value)} />
      <button type="submit" className={`btn btn-sm ${props.primary ? 'btn-primary' : ''}`} data-testid={props.actTestId} disabled={props.needsValue && value === ''}>
        {props.action}
      </button>
    </form>
  );
}

function AccountCard({ state }: { state: LocalConsoleState }) {
  const t = useText(appText);
  const topUp = useLocalAction('localTopUp');
  const update = useLocalAction('localUpdateAccount');
  const a = state.account;
  return (
    <Card title={t('local.account')} testId="local-account">
      <dl className="facts">
        <dt>{t('local.balance')}</dt>
        <dd data-testid="local-balance">{a.credits}</dd>
        <dt>{t('local.reserved')}</dt>
        <dd>{a.reserved}</dd>
        <dt>{t('local.age')}</dt>
        <dd>
          {t('local.days', { count: a.ageDays })} {a.ageDays < 7 ? <Badge tone="warn">{t('local.newAccount')}</Badge> : null}
        </dd>
        <dt>{t('local.banned')}</dt>
        <dd>{a.banned ? <Badge tone="danger">{t('local.bannedYes')}</Badge> : t('local.bannedNo')}</dd>
      </dl>
      <NumberAction id="topup" label={t('local.topUp')} action={t('local.topUpButton')} initial="1000" min={1} testId="local-topup-amount" actTestId="local-topup" primary onAct={(credits) => topUp.mutate({ credits })} />
      <NumberAction id="set-credits" label={t('local.setBalance')} action={t('common.apply')} min={0} testId="local-set-credits" actTestId="local-set-credits-apply" needsValue onAct={(credits) => update.mutate({ credits })} />
      <NumberAction id="set-age" label={t('local.setAge')} action={t('common.apply')} min={0} needsValue onAct={(ageDays) => update.mutate({ ageDays })} />
      <Toggle label={t('local.banToggle')} testId="local-ban" checked={a.banned} onChange={(checked) => update.mutate({ banned: checked })} />
      <ErrorLine error={topUp.error ?? update.error} />
    </Card>
  );
}

type KeyInfo = LocalConsoleState['keys'][number];
type Action<K extends IpcMethodName> = ReturnType<typeof useLocalAction<K>>;

/** One key: name and badges, scopes, expiry, its own 24 h limit (a form) and Revoke. */
function KeyRow({ k, defaultLimit, rate, revoke }: { k: KeyInfo; defaultLimit: number; rate: Action<'localSetKeyRateLimit'>; revoke: Action<'localRevokeKey'> }) {
  const t = useText(appText);
  const format = useFormats();
  const [limit, setLimit] = useState('');
  return (
    <tr data-testid="local-key-row" data-key-id={k.id}>
      <td>
        {k.name} {k.usedByApp ? <Badge tone="accent">{t('local.usedByApp')}</Badge> : null} {k.revoked ? <Badge tone="danger">{t('local.revoked')}</Badge> : null}
      </td>
      <td className="small">{k.scopes.join(', ')}</td>
      <td className="small">{k.expires_at ? format.dateTimeSeconds(k.expires_at * 1000) : t('local.never')}</td>
      <td>
        <form className="row-gap" onSubmit={submitWith(() => rate.mutate({ keyId: k.id, ratePer24h: Number(limit) }))}>
          <input
            type="number"
            min={1}
            className="input-narrow"
            aria-label={t('local.rateLimitFor', { name: k.name })}
            data-testid="local-key-rate"
            placeholder={String(k.rate_limit_per_24h ?? defaultLimit)}
            value={limit}
            onChange={(e) => setLimit(e.target.value)}
          />
          <button type="submit" className="btn btn-xs" data-testid="local-key-rate-apply" disabled={!limit}>
            {t('common.apply')}
          </button>
        </form>
      </td>
      <td>
        {!k.revoked ? (
          <button type="button" className="btn btn-ghost btn-xs" onClick={() => revoke.mutate({ keyId: k.id })}>
            {t('local.revoke')}
          </button>
        ) : null}
      </td>
    </tr>
  );
}

/** The new key once created: shown this once (no system clipboard reaches the browser harness), or where it went. */
function CreatedKey({ create }: { create: Action<'localCreateKey'> }) {
  const t = useText(appText);
  if (!create.data) return null;
  if (!create.data.oneTimeKey) {
    return (
      <p className="hint-ok" role="status">
        {create.data.usedByApp
          ? t('local.keyUsedByApp')
          : create.data.copiedToClipboard
            ? t('local.keyCopied', { seconds: create.data.clipboardClearsInS ?? 60 })
            : t('local.keyCreated')}
      </p>
    );
  }
  return (
    <div className="one-time-key" role="alertdialog" aria-labelledby="one-time-key-title" data-testid="one-time-key">
      <p id="one-time-key-title" className="hint-warn">
        {t('local.keyShownOnce')}
      </p>
      <div className="row-gap">
        <label className="sr-only" htmlFor="one-time-key-value">
          {t('local.newKey')}
        </label>
        <input id="one-time-key-value" data-testid="one-time-key-value" className="grow mono" readOnly value={create.data.oneTimeKey} onFocus={(e) => e.currentTarget.select()} />
        <CopyButton text={create.data.oneTimeKey} testId="one-time-key-copy" />
        <button type="button" className="btn btn-sm" data-testid="one-time-key-done" onClick={() => create.reset()}>
          {t('local.keySaved')}
        </button>
      </div>
    </div>
  );
}

/** A new key: name, days to expiry, scopes, and whether the app uses it from now on. */
function NewKeyForm({ now, create }: { now: number; create: Action<'localCreateKey'> }) {
  const t = useText(appText);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiScope[]>([...API_SCOPES]);
  const [days, setDays] = useState('');
  const [useForApp, setUseForApp] = useState(false);
  const createKey = submitWith(() => {
    const expiresAt = days ? now + Number(days) * 86400 : undefined;
    create.mutate({ name, scopes, ...(expiresAt ? { expiresAt } : {}), useForApp });
  });
  return (
    <form className="stack" onSubmit={createKey}>
      <h4 className="card-sub">{t('local.newKey')}</h4>
      <div className="row-gap wrap">
        <input aria-label={t('local.keyName')} placeholder={t('local.keyName')} value={name} onChange={(e) => setName(e.target.value)} />
        <input aria-label={t('local.expiresInDays')} placeholder={t('local.expiresInDays')} type="number" min={1} value={days} onChange={(e) => setDays(e.target.value)} className="input-medium" />
      </div>
      <div className="row-gap wrap">
        {API_SCOPES.map((scope) => (
          <Toggle key={scope} label={<code>{scope}</code>} checked={scopes.includes(scope)} onChange={(on) => setScopes(on ? [...scopes, scope] : scopes.filter((s) => s !== scope))} />
        ))}
      </div>
      <Toggle label={t('local.useForApp')} checked={useForApp} onChange={setUseForApp} />
      <div>
        <button type="submit" className="btn btn-sm btn-primary" disabled={name.trim() === '' || scopes.length === 0}>
          {t('local.createKey')}
        </button>
      </div>
      <CreatedKey create={create} />
    </form>
  );
}

function KeysCard({ state }: { state: LocalConsoleState }) {
  const t = useText(appText);
  const create = useLocalAction('localCreateKey');
  const revoke = useLocalAction('localRevokeKey');
  const rate = useLocalAction('localSetKeyRateLimit');
  return (
    // Wide: the table (name, scopes, expiry, limit form, revoke) does not fit a third of the window.
    <Card title={t('local.keys')} testId="local-keys" wide>
      <table className="table">
        <thead>
          <tr>
            <th>{t('local.keyName')}</th>
            <th>{t('local.scopes')}</th>
            <th>{t('local.expires')}</th>
            <th>{t('local.rateLimit')}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {state.keys.map((k) => (
            <KeyRow key={k.id} k={k} defaultLimit={state.settings.default_rate_limit_per_24h} rate={rate} revoke={revoke} />
          ))}
        </tbody>
      </table>
      <NewKeyForm now={state.now} create={create} />
      <ErrorLine error={create.error ?? revoke.error ?? rate.error} />
    </Card>
  );
}

function FaultsCard({ state }: { state: LocalConsoleState }) {
  const t = useText(appText);
  const setFaults = useLocalAction('localSetFaults');
  const g = state.faults.generate ?? {};
  return (
    <Card title={t('local.faults')} testId="local-faults">
      <p className="muted small">
        {t('local.armed')}: {t('local.armedList', { fail: g.fail ?? 0, partial: g.partial?.count ?? 0, downgrade: g.downgrade ?? 0, latency: g.latency_ms ?? 0, auth: state.faults.auth_unavailable ?? 0 })}
      </p>
      <NumberAction id="fault-fail-count" label={t('local.failCount')} action={t('local.armFail')} initial="1" min={1} narrow actTestId="fault-fail" onAct={(fail) => setFaults.mutate({ generate: { fail } })} />
      <NumberAction id="fault-partial-produce" label={t('local.partialProduce')} action={t('local.armPartial')} initial="1" min={0} narrow actTestId="fault-partial" onAct={(produce) => setFaults.mutate({ generate: { partial: { count: 1, produce } } })} />
      <div className="row-gap wrap">
        <button type="button" className="btn btn-sm" data-testid="fault-downgrade" onClick={() => setFaults.mutate({ generate: { downgrade: 1 } })}>
          {t('local.armDowngrade')}
        </button>
      </div>
      <NumberAction id="fault-latency-ms" label={t('local.latency')} action={t('local.setLatency')} initial="3000" min={0} narrow actTestId="fault-latency" onAct={(latency_ms) => setFaults.mutate({ generate: { latency_ms } })} />
      <div className="row-gap wrap">
        <button type="button" className="btn btn-sm" onClick={() => setFaults.mutate({ auth_unavailable: 1 })}>
          {t('local.armAuthUnavailable')}
        </button>
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => setFaults.mutate({ generate: { fail: 0, downgrade: 0, latency_ms: 0, partial: { count: 0, produce: 0 } }, auth_unavailable: 0 })}>
          {t('local.clearFaults')}
        </button>
      </div>
      <ErrorLine error={setFaults.error} />
    </Card>
  );
}

function ClockAndLimitsCard({ state }: { state: LocalConsoleState }) {
  const t = useText(appText);
  const format = useFormats();
  const advance = useLocalAction('localAdvanceClock');
  const backToRealTime = useLocalAction('localResetClock');
  const settings = useLocalAction('localSetSettings');
  return (
    <Card title={t('local.clockAndLimits')} testId="local-clock">
      <div className="row-gap wrap">
        <span>
          {t('local.serviceClock')}: <strong>{format.dateTimeSeconds(state.now * 1000)}</strong>
        </span>
        <span className="muted small" data-testid="clock-offset">
          {state.clockOffsetS > 0 ? t('local.clockAhead', { seconds: state.clockOffsetS }) : t('local.clockAtRealTime')}
        </span>
        <button type="button" className="btn btn-sm" data-testid="clock-reset" disabled={state.clockOffsetS === 0} onClick={() => backToRealTime.mutate({})}>
          {t('local.backToRealTime')}
        </button>
      </div>
      <NumberAction id="clock-advance-hours" label={t('local.advanceHours')} action={t('local.advance')} initial="24" min={1} narrow onAct={(hours) => advance.mutate({ seconds: Math.round(hours * 3600) })} />
      <p className="muted small" data-testid="clock-effect">
        {t('local.clockEffect')}
      </p>
      <NumberAction
        id="default-rate"
        label={t('local.defaultRateLimit')}
        action={t('common.apply')}
        min={1}
        narrow
        needsValue
        placeholder={String(state.settings.default_rate_limit_per_24h)}
        onAct={(limit) => settings.mutate({ default_rate_limit_per_24h: limit })}
      />
      <Toggle label={t('local.allowLoopback')} checked={state.settings.allow_loopback_webhooks} onChange={(checked) => settings.mutate({ allow_loopback_webhooks: checked })} />
      <ErrorLine error={advance.error ?? backToRealTime.error ?? settings.error} />
    </Card>
  );
}

function WebhookCard({ state }: { state: LocalConsoleState }) {
  const t = useText(appText);
  const format = useFormats();
  const set = useLocalAction('localWebhookSet');
  const regenerate = useLocalAction('localWebhookRegenerate');
  const ping = useLocalAction('localWebhookPing');
  const [url, setUrl] = useState<string | null>(null);
  const w = state.webhook;
  const d = w.lastDelivery;
  return (
    <Card title={t('local.webhook')} testId="local-webhook">
      <form className="row-gap wrap" onSubmit={submitWith(() => set.mutate({ url: url ?? w.url, enabled: w.enabled }))}>
        <input type="url" className="grow" aria-label={t('local.webhookUrl')} placeholder="https://" value={url ?? w.url} onChange={(e) => setUrl(e.target.value)} />
        <button type="submit" className="btn btn-sm">
          {t('common.save')}
        </button>
      </form>
      <div className="row-gap wrap">
        <Toggle label={t('local.webhookEnabled')} checked={w.enabled} onChange={(checked) => set.mutate({ url: w.url, enabled: checked })} />
        <span className="muted small">{w.secretStored ? t('local.secretStored') : t('local.secretNotStored')}</span>
        <button type="button" className="btn btn-sm" onClick={() => regenerate.mutate({})}>
          {t('local.regenerate')}
        </button>
        <button type="button" className="btn btn-sm" onClick={() => ping.mutate({})}>
          {t('local.ping')}
        </button>
      </div>
      <p className="small" data-testid="last-delivery">
        {t('local.lastDelivery')}:{' '}
        {d
          ? t('local.deliveryLine', { event: d.event, outcome: t(`local.outcome.${d.outcome}`), attempts: d.attempts, status: d.status ?? '—', at: format.dateTimeSeconds(d.at * 1000) })
          : t('local.noDelivery')}
      </p>
      <ErrorLine error={set.error ?? regenerate.error ?? ping.error} />
    </Card>
  );
}

function PacksCard({ state }: { state: LocalConsoleState }) {
  const t = useText(appText);
  const packIds = useLocalConsoleStore((s) => s.packImageIds);
  const create = useLocalAction('localPackCreate');
  const update = useLocalAction('localPackUpdate');
  const publish = useLocalAction('localPackPublish');
  const [style, setStyle] = useState('');
  const [keys, setKeys] = useState<Record<string, string>>({});
  const keyFor = (packId: string) => keys[packId] ?? '';
  return (
    <Card title={t('local.packs')} testId="local-packs">
      <form className="row-gap wrap" onSubmit={submitWith(() => create.mutate({ styleCode: style, imageIds: packIds }))}>
        <input aria-label={t('local.styleCode')} placeholder={t('local.styleCode')} value={style} onChange={(e) => setStyle(e.target.value)} />
        <button type="submit" className="btn btn-sm btn-primary" data-testid="pack-create" disabled={style.trim() === ''}>
          {t('local.createPack', { count: packIds.length })}
        </button>
        <span className="muted small">{t('local.packFromSelection')}</span>
      </form>
      <ul className="pack-list">
        {state.packs.map((p) => (
          <li key={p.packId} className="pack-row" data-testid="pack-row" data-pack-id={p.packId}>
            <div>
              <code>{p.packId}</code> · {p.styleCode} · {t('gallery.imageCount', { count: p.imageIds.length })} · {t('local.versions', { count: p.versions })}{' '}
              {p.saved ? null : <Badge tone="warn">{t('local.unsaved')}</Badge>}
            </div>
            <div className="row-gap wrap">
              <input
                aria-label={t('local.idempotencyKey')}
                placeholder={t('local.idempotencyKey')}
                value={keyFor(p.packId)}
                onChange={(e) => setKeys({ ...keys, [p.packId]: e.target.value })}
              />
              <button type="button" className="btn btn-ghost btn-xs" onClick={() => setKeys({ ...keys, [p.packId]: crypto.randomUUID() })}>
                {t('local.newIdempotencyKey')}
              </button>
              <button
                type="button"
                className="btn btn-sm"
                data-testid="pack-publish"
                onClick={() => publish.mutate({ packId: p.packId, ...(keyFor(p.packId) ? { idempotencyKey: keyFor(p.packId) } : {}) })}
              >
                {t('local.publish')}
              </button>
              {p.saved ? (
                <button type="button" className="btn btn-ghost btn-xs" onClick={() => update.mutate({ packId: p.packId, saved: false })}>
                  {t('local.markUnsaved')}
                </button>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
      {publish.data ? (
        publish.data.published ? (
          <p className="hint-ok" role="status" data-testid="publish-result">
            {t('local.published', { version: publish.data.publication.version, id: publish.data.publication.id })}
          </p>
        ) : (
          <p className="hint-danger" role="status" data-testid="publish-result">
            {t('local.rejected', { reason: t(`local.rejectReason.${publish.data.reason}`) })}
          </p>
        )
      ) : null}
      <ErrorLine error={create.error ?? update.error ?? publish.error} />
    </Card>
  );
}

export function LocalConsole() {
  const t = useText(appText);
  const settings = useSettings().data;
  const isLocal = settings?.environment === 'local';
  const status = useLocalStatus(isLocal);
  if (!isLocal) return <div className="page muted">{t('local.onlyLocal')}</div>;
  if (!status.data) return <div className="page">{status.isError ? <ErrorLine error={status.error} /> : t('common.loading')}</div>;
  const state = status.data;
  return (
    <div className="page local-console">
      <h1 className="page-title">
        {t('local.title')} <code className="muted small">{state.baseUrl}</code>
      </h1>
      <div className="card-grid">
        <AccountCard state={state} />
        <FaultsCard state={state} />
        <ClockAndLimitsCard state={state} />
        <KeysCard state={state} />
        <WebhookCard state={state} />
        <PacksCard state={state} />
        <RequestLogCard />
      </div>
    </div>
  );
}
