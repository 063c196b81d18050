// The app's modal dialog (export, marketplace export, product editor): focus moves in and comes back when it
// closes, Tab stays in, Esc closes unless a control inside used the key first (a grid clearing its selection),
// and while `busy` nothing closes it. The title names it; the optional line under it says what it acts on.
import { useEffect, useId, type ReactNode } from 'react';
import { trapTab } from './trapTab.ts';
import { useDialogFocus } from './useDialogFocus.ts';

interface DialogProps {
  title: ReactNode;
  description?: ReactNode;
  testId: string;
  className?: string;
  closeLabel: string;
  closeTestId?: string;
  busy: boolean;
  onClose: () => void;
  /** Buttons in the head, before the close button. */
  headActions?: ReactNode;
  /** The dialog's buttons, kept in view at the bottom. */
  footer: ReactNode;
  children: ReactNode;
}

function useEscapeCloses(onClose: () => void, busy: boolean): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !busy && !e.defaultPrevented) onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose, busy]);
}

export function Dialog(props: DialogProps) {
  const id = useId();
  const dialogRef = useDialogFocus(true);
  useEscapeCloses(props.onClose, props.busy);
  return (
    <div className="export-backdrop">
      <div
        className={`export-dialog ${props.className ?? ''}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={props.description !== undefined ? `${id}-what` : undefined}
        data-testid={props.testId}
        ref={dialogRef}
        tabIndex={-1}
        onKeyDown={trapTab}
      >
        <div className="export-head">
          <h2 className="export-title" id={`${id}-title`}>
            {props.title}
          </h2>
          {props.headActions ? (
            <>
              <span className="spacer" />
              {props.headActions}
            </>
          ) : null}
          <button type="button" className="btn btn-ghost btn-sm" onClick={props.onClose} disabled={props.busy} aria-label={props.closeLabel} data-testid={props.closeTestId}>
            ✕
          </button>
        </div>
        {props.description !== undefined ? (
          <p className="muted small" id={`${id}-what`}>
            {props.description}
          </p>
        ) : null}
        {props.children}
        <div className="export-foot">{props.footer}</div>
      </div>
    </div>
  );
}
