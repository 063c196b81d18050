// What an export wrote, said the same way for a selection and for a marketplace batch: the folder (or that none
// was chosen), a note (the CSV or the manifest), the files behind a disclosure, and what was not written and why.
import type { ReactNode } from 'react';

export interface OutcomeLine {
  key: string;
  content: ReactNode;
  /** Why an image was not written (data-reason, for tests and support). */
  reason?: string;
}

interface ExportOutcomeProps {
  testId: string;
  folderTestId: string;
  folder: string | null;
  cancelledText: string;
  /** "3 files written (1.2 MB) to", followed by the folder. */
  writtenText: string;
  note?: ReactNode;
  filesLabel: string;
  files: OutcomeLine[];
  missingText: string;
  missingTestId: string;
  missing: OutcomeLine[];
  /** The counts the outcome carries as data-* attributes. */
  counts: Record<`data-${string}`, number>;
  /** Long lists scroll, so they take the focus (a keyboard can scroll them). */
  focusableLists?: boolean;
}

export function ExportOutcome(props: ExportOutcomeProps) {
  if (props.folder === null) {
    return (
      <div className="export-result" role="status" data-testid={props.testId} data-outcome="cancelled">
        <p>{props.cancelledText}</p>
      </div>
    );
  }
  const outcome = props.missing.length > 0 ? 'partial' : 'done';
  const tabIndex = props.focusableLists ? 0 : undefined;
  return (
    <div className={`export-result export-result-${outcome}`} role="status" data-testid={props.testId} data-outcome={outcome} {...props.counts}>
      <p>
        {props.writtenText}{' '}
        <code className="export-folder" data-testid={props.folderTestId}>
          {props.folder}
        </code>
      </p>
      {props.note ? <p className="small">{props.note}</p> : null}
      {props.files.length > 0 ? (
        <details className="export-files">
          <summary className="small">{props.filesLabel}</summary>
          <ul className="small" tabIndex={tabIndex}>
            {props.files.map((f) => (
              <li key={f.key}>{f.content}</li>
            ))}
          </ul>
        </details>
      ) : null}
      {props.missing.length > 0 ? (
        <div className="export-skipped">
          <p className="small">{props.missingText}</p>
          <ul className="small" data-testid={props.missingTestId} tabIndex={tabIndex}>
            {props.missing.map((m) => (
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
