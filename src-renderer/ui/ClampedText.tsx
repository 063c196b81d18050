// A long text (a 4000-character prompt) shown in a few lines, with a toggle to read all of it. The toggle
// appears only when the text is actually cut off.
import { useLayoutEffect, useRef, useState } from 'react';
import { appText, useText } from '../i18n/text.ts';

export function ClampedText({ text, lines, className, testId }: { text: string; lines: number; className?: string; testId?: string }) {
  const t = useText(appText);
  const ref = useRef<HTMLParagraphElement>(null);
  const [expanded, setExpanded] = useState(false);
  const [overflows, setOverflows] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || expanded) return;
    const measure = () => setOverflows(el.scrollHeight > el.clientHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [text, expanded]);
  return (
    <div className="clamped">
      <p
        ref={ref}
        className={`${className ?? ''} ${expanded ? '' : 'clamp'}`}
        style={expanded ? undefined : { WebkitLineClamp: lines, lineClamp: lines }}
        data-testid={testId}
        data-expanded={expanded}
      >
        {text}
      </p>
      {overflows || expanded ? (
        <button type="button" className="btn btn-ghost btn-xs clamp-toggle" aria-expanded={expanded} data-testid={testId ? `${testId}-toggle` : undefined} onClick={() => setExpanded(!expanded)}>
          {expanded ? t('common.showLess') : t('common.showMore')}
        </button>
      ) : null}
    </div>
  );
}
