// What happened to the user's local data at this start (docs/main-process.md "Recovery of local data"):
// one dismissable banner per notice, worded from its code in the UI language, with the damaged file's path
// (or the backups folder) selectable and copyable, and what a restore could not bring back.
import type { StartupNotice } from '../../../src-shared/ipc/app.ts';
import { useFormats, type Formats } from '../../i18n/format.ts';
import { appText, useText, type AppText } from '../../i18n/text.ts';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { useDismissNotice, useStartupNotices } from './queries.ts';
import './notices.css';

/** The backup's time in the UI's format; a value that is no time is shown as main sent it. */
function backupTime(iso: string | undefined, format: Formats): string {
  if (!iso) return '';
  const ms = new Date(iso).getTime();
  return Number.isNaN(ms) ? iso : format.dateTime(ms);
}

/** A count main sent as text; 0 when absent. */
function countOf(value: string | undefined): number {
  const n = Number(value ?? 0);
  return Number.isFinite(n) ? n : 0;
}

/** The sentences after the main one: what a restore salvaged or not, what became of generations sent meanwhile. */
function detailLines(notice: StartupNotice, t: AppText): string[] {
  const { code, params } = notice;
  const lines: string[] = [];
  if (code === 'library_restored' && params.salvaged) lines.push(t('notices.salvagedLine', { salvaged: params.salvaged }));
  // Every rebuilt database (library or local service) names what could not be saved the same way.
  if (params.notSalvaged) {
    lines.push(params.notSalvaged === 'all' ? t('notices.notSalvagedAll') : t('notices.notSalvaged', { tables: params.notSalvaged }));
  }
  if (code === 'sends_brought_back') {
    const unknown = countOf(params.unknown);
    const batches = countOf(params.batchCount);
    if (unknown > 0) lines.push(t('notices.sendsUnknown', { count: unknown }));
    if (batches > 0) lines.push(t('notices.sendsBatchPaused', { count: batches, batches: params.batches ?? '' }));
  }
  return lines;
}

/** A path to select and copy: the damaged file kept aside, or the folder backups go to. */
function PathLine(props: { label: string; path: string }) {
  return (
    <div className="startup-notice-where">
      <span>{props.label}</span>
      <code className="startup-notice-path" data-testid="startup-notice-path">
        {props.path}
      </code>
      <CopyButton text={props.path} testId="startup-notice-copy" />
    </div>
  );
}

function NoticeBanner(props: { notice: StartupNotice }) {
  const t = useText(appText);
  const format = useFormats();
  const dismiss = useDismissNotice();
  const { code, params } = props.notice;
  const facts = { ...params, count: countOf(params.count), backupDate: backupTime(params.backupDate, format), accountId: params.accountId ?? '' };
  return (
    <div className="startup-notice" role="status" data-testid="startup-notice" data-code={code}>
      <div className="startup-notice-body">
        <p>{t(`notices.${code}`, facts)}</p>
        {detailLines(props.notice, t).map((line) => (
          <p key={line} data-testid="startup-notice-detail">
            {line}
          </p>
        ))}
        {params.damagedPath ? <PathLine label={t('notices.keptAt')} path={params.damagedPath} /> : null}
        {params.folder ? <PathLine label={t('notices.backupFolder')} path={params.folder} /> : null}
      </div>
      <button
        type="button"
        className="btn btn-ghost btn-xs"
        data-testid="startup-notice-dismiss"
        disabled={dismiss.isPending}
        onClick={() => dismiss.mutate(props.notice.id)}
      >
        {t('notices.dismiss')}
      </button>
    </div>
  );
}

/** The banners of this start's notices; nothing when there are none. */
export function StartupNotices() {
  const t = useText(appText);
  const notices = useStartupNotices();
  if (!notices.data?.length) return null;
  return (
    <section className="startup-notices" aria-label={t('notices.label')}>
      {notices.data.map((notice) => (
        <NoticeBanner key={notice.id} notice={notice} />
      ))}
    </section>
  );
}
