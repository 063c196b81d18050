// What an export wrote, said the same way for a selection and for a marketplace batch: the folder (or that none
// was chosen), a note (the CSV or the manifest), the files behind a disclosure, and what was not written and why.
import type { ReactNode } from 'react';
import { formatBytes } from '../i18n/format.ts';

/** An image that was not written, and why (data-reason, for tests and support). */
export interface NotWritten {
  key: string;
  reason: string;
  content: ReactNode;
}

interface WrittenFile {
  imageId: string;
  file: string;
}

/** The outcome's sentences, each in the caller's own words: the counts and the size are filled in here. */
export type OutcomeWords = (what: 'cancelled' | 'written' | 'files' | 'missing', values: { count?: number; size?: string }) => string;

interface ExportOutcomeProps<F extends WrittenFile> {
  /** Test ids: `${idPrefix}-result`, `${idPrefix}-folder`, `${idPrefix}-${missingName}`; data-written and data-${missingName}. */
  idPrefix: string;
  missingName: string;
  summary: { folder: string | null; bytes: number; written: F[] };
  say: OutcomeWords;
  note?: ReactNode;
  /** What follows a written file's name (its size, its white share). */
  fileDetail?: (file: F) => ReactNode;
  missing: NotWritten[];
  /** Long lists scroll, so they take the focus (a keyboard can scroll them). */
  focusableLists?: boolean;
}

export function ExportOutcome<F extends WrittenFile>(props: ExportOutcomeProps<F>) {
  const { idPrefix, missingName, summary, say, missing, fileDetail } = props;
  if (summary.folder === null) {
    return (
      <div className="export-result" role="status" data-testid={`${idPrefix}-result`} data-outcome="cancelled">
        <p>{say('cancelled', {})}</p>
      </div>
    );
  }
  const outcome = missing.length > 0 ? 'partial' : 'done';
  const tabIndex = props.focusableLists ? 0 : undefined;
  const counts = { 'data-written': summary.written.length, [`data-${missingName}`]: missing.length };
  return (
    <div className={`export-result export-result-${outcome}`} role="status" data-testid={`${idPrefix}-result`} data-outcome={outcome} {...counts}>
      <p>
        {say('written', { count: summary.written.length, size: formatBytes(summary.bytes) })}{' '}
        <code className="export-folder" data-testid={`${idPrefix}-folder`}>
          {summary.folder}
        </code>
      </p>
      {props.note ? <p className="small">{props.note}</p> : null}
      {summary.written.length > 0 ? (
        <details className="export-files">
          <summary className="small">{say('files', { count: summary.written.length })}</summary>
          <ul className="small" tabIndex={tabIndex}>
            {summary.written.map((w) => (
              <li key={w.imageId}>
                <code>{w.file}</code>
                {fileDetail?.(w)}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {missing.length > 0 ? (
        <div className="export-skipped">
          <p className="small">{say('missing', { count: missing.length })}</p>
          <ul className="small" data-testid={`${idPrefix}-${missingName}`} tabIndex={tabIndex}>
            {missing.map((m) => (
              <li key={m.key} data-reason={m.reason}>
                {m.content}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
