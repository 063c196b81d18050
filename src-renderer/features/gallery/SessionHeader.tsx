import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SessionSummary } from '../../../src-shared/ipc/library.ts';
import { useLanguage } from '../../ui/useLanguage.ts';
import { useComposeStore } from '../compose/store.ts';
import { useExportStore } from '../export/store.ts';
import { useSettings } from '../settings/queries.ts';
import { useRenameSession } from './queries.ts';

// One formatter per language: creating Intl formatters per header would cost every scroll frame.
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function formatDate(ms: number, language: string): string {
  const locale = language === 'en' ? 'en' : 'zh-CN';
  let format = dateFormats.get(locale);
  if (!format) {
    // With the time: sessions are titled from their first prompt (SessionSummary.title), and the same prompt
    // on another day reads apart by its time.
    format = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: '2-digit' });
    dateFormats.set(locale, format);
  }
  return format.format(ms);
}

/** The title editor, mounted only while renaming (so scrolling headers carry no mutation observers). */
function RenameInput({ session, done }: { session: SessionSummary; done: () => void }) {
  const { t } = useTranslation();
  const rename = useRenameSession();
  const [title, setTitle] = useState(session.title);
  const save = () => {
    const trimmed = title.trim();
    if (trimmed && trimmed !== session.title) rename.mutate({ sessionId: session.id, title: trimmed });
    done();
  };
  return (
    <input
      className="session-rename-input"
      aria-label={t('gallery.renameLabel')}
      data-testid="session-rename-input"
      value={title}
      maxLength={120}
      autoFocus
      onChange={(e) => setTitle(e.target.value)}
      onBlur={save}
      onKeyDown={(e) => {
        if (e.key === 'Enter') save();
        if (e.key === 'Escape') done();
      }}
    />
  );
}

export function SessionHeader({ session, total }: { session: SessionSummary; total: number }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const continuing = useComposeStore((s) => s.session?.id === session.id);
  const setSession = useComposeStore((s) => s.setSession);
  const [editing, setEditing] = useState(false);
  const openExport = useExportStore((s) => s.open);
  const environment = useSettings().data?.environment;
  // Sessions of the other environment stay browsable but cannot be continued here (their ids live there).
  const elsewhere = environment !== undefined && session.environment !== environment;
  return (
    <div className="session-header">
      {editing ? (
        <RenameInput session={session} done={() => setEditing(false)} />
      ) : (
        <button
          type="button"
          className="session-title"
          data-testid="session-title"
          title={`${session.title}\n${t('gallery.renameHint')}`}
          onClick={() => setEditing(true)}
        >
          {session.title}
        </button>
      )}
      <span className="session-meta muted">
        {elsewhere ? `${t(`env.${session.environment}`)} · ` : ''}
        {t('gallery.imageCount', { count: total })} · {formatDate(session.updatedAt, language)}
      </span>
      <button
        type="button"
        className={`btn btn-xs ${continuing ? 'btn-accent-soft' : 'btn-ghost'}`}
        data-testid="continue-session"
        aria-pressed={continuing}
        disabled={elsewhere}
        title={elsewhere ? t('gallery.otherEnvironment', { env: t(`env.${session.environment}`) }) : undefined}
        onClick={() => setSession(continuing ? null : { id: session.id, title: session.title })}
      >
        {continuing ? t('gallery.continuing') : t('gallery.continue')}
      </button>
      <button
        type="button"
        className="btn btn-xs btn-ghost"
        data-testid="export-session"
        aria-label={t('export.sessionButtonLabel', { name: session.title })}
        onClick={() => openExport({ kind: 'session', sessionId: session.id, title: session.title })}
      >
        {t('export.sessionButton')}
      </button>
    </div>
  );
}
