// What happened to the user's local data at this start (docs/main-process.md "Recovery of local data"):
// one dismissable banner per notice, worded from its code in the UI language, with the damaged file's path
// selectable and copyable.
import type { StartupNotice } from '../../../src-shared/ipc/app.ts';
import { useFormats, type Formats } from '../../i18n/format.ts';
import { appText, useText } from '../../i18n/text.ts';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { useDismissNotice, useStartupNotices } from './queries.ts';
import './notices.css';

/** The backup's time in the UI's format; a value that is no time is shown as main sent it. */
function backupTime(iso: string | undefined, format: Formats): string {
  if (!iso) return '';
  const ms = new Date(iso).getTime();
  return Number.isNaN(ms) ? iso : format.dateTime(ms);
}

function NoticeBanner(props: { notice: StartupNotice }) {
  const t = useText(appText);
  const format = useFormats();
  const dismiss = useDismissNotice();
  const { code, params } = props.notice;
  return (
    <div className="startup-notice" role="status" data-testid="startup-notice" data-code={code}>
      <div className="startup-notice-body">
        <p>{t(`notices.${code}`, { backupDate: backupTime(params.backupDate, format), accountId: params.accountId ?? '' })}</p>
        {params.damagedPath ? (
          <div className="startup-notice-where">
            <span>{t('notices.keptAt')}</span>
            <code className="startup-notice-path" data-testid="startup-notice-path">
              {params.damagedPath}
            </code>
            <CopyButton text={params.damagedPath} testId="startup-notice-copy" />
          </div>
        ) : null}
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
