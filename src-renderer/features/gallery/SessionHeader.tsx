import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SessionSummary } from '../../../src-shared/ipc/library.ts';
import { useLanguage } from '../../ui/useLanguage.ts';
import { useComposeStore } from '../compose/store.ts';
import { useRenameSession } from './queries.ts';

export function SessionHeader({ session, total }: { session: SessionSummary; total: number }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const rename = useRenameSession();
  const current = useComposeStore((s) => s.session);
  const setSession = useComposeStore((s) => s.setSession);
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(session.title);
  const continuing = current?.id === session.id;
  const save = () => {
    const trimmed = title.trim();
    if (trimmed && trimmed !== session.title) rename.mutate({ sessionId: session.id, title: trimmed });
    setEditing(false);
  };
  return (
    <div className="session-header">
      {editing ? (
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
            if (e.key === 'Escape') {
              setTitle(session.title);
              setEditing(false);
            }
          }}
        />
      ) : (
        <button
          type="button"
          className="session-title"
          data-testid="session-title"
          title={t('gallery.renameHint')}
          onClick={() => {
            setTitle(session.title);
            setEditing(true);
          }}
        >
          {session.title}
        </button>
      )}
      <span className="session-meta muted">
        {t('gallery.imageCount', { count: total })} · {new Date(session.updatedAt).toLocaleDateString(language === 'en' ? 'en' : 'zh-CN')}
      </span>
      <button
        type="button"
        className={`btn btn-xs ${continuing ? 'btn-accent-soft' : 'btn-ghost'}`}
        data-testid="continue-session"
        aria-pressed={continuing}
        onClick={() => setSession(continuing ? null : { id: session.id, title: session.title })}
      >
        {continuing ? t('gallery.continuing') : t('gallery.continue')}
      </button>
    </div>
  );
}
