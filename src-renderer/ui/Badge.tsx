import type { ReactNode } from 'react';

export type BadgeTone = 'neutral' | 'ok' | 'warn' | 'danger' | 'accent' | 'info';

export function Badge(props: { tone?: BadgeTone; children: ReactNode; title?: string; testId?: string }) {
  return (
    <span className={`badge badge-${props.tone ?? 'neutral'}`} title={props.title} data-testid={props.testId}>
      {props.children}
    </span>
  );
}
