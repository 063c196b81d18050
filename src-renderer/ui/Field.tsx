import type { ReactNode } from 'react';

/** A labelled control with an optional one-line hint under it. */
export function Field(props: { id: string; label: string; hint?: ReactNode; aside?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <div className={`field ${props.className ?? ''}`}>
      <div className="field-head">
        <label htmlFor={props.id} className="field-label">
          {props.label}
        </label>
        {props.aside}
      </div>
      {props.children}
      {props.hint ? (
        <div className="field-hint" id={`${props.id}-hint`}>
          {props.hint}
        </div>
      ) : null}
    </div>
  );
}
