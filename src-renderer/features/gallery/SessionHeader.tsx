import { memo, useState } from 'react';
import type { EnvironmentName } from '../../../src-shared/ipc/settings.ts';
import type { SessionSummary } from '../../../src-shared/ipc/library.ts';
import type { Language } from '../../../src-shared/language.ts';
import { formatsFor } from '../../i18n/format.ts';
import { appText, useText, type AppText } from '../../i18n/text.ts';
import { useComposeStore } from '../compose/index.ts';
import { useExportStore } from '../export/index.ts';
import { useRenameSession } from './queries.ts';

/** The title editor, mounted only while renaming (so scrolling headers carry no mutation observers). */
function RenameInput({ session, done }: { session: SessionSummary; done: () => void }) {
  const t = useText(appText);
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

interface HeaderProps {
  session: SessionSummary;
  total: number;
  /** The current environment (undefined until settings load). */
  environment: EnvironmentName | undefined;
  /** Passed down by the grid, as to the tiles: headers scroll in and out, so they subscribe to as little as they can. */
  t: AppText;
  language: Language;
}

export const SessionHeader = memo(function SessionHeader({ session, total, environment, t, language }: HeaderProps) {
  const continuing = useComposeStore((s) => s.session?.id === session.id);
  const setSession = useComposeStore((s) => s.setSession);
  const [editing, setEditing] = useState(false);
  const openExport = useExportStore((s) => s.open);
  // Sessions of the other environment stay browsable but cannot be continued here (their ids live there).
  const elsewhere = environment !== undefined && session.environment !== environment;
  return (
    <div className="session-header">
      {/* The title over its count and date, beside the buttons: each line has the header's width, not a share of it. */}
      <div className="session-heading">
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
          {t('gallery.imageCount', { count: total })} · {formatsFor(language).dateTime(session.updatedAt)}
        </span>
      </div>
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
});
