import { useState } from 'react';
import { appText, useText } from '../i18n/text.ts';

/** Copies text to the clipboard and says so for a moment. */
export function CopyButton(props: { text: string; label?: string; className?: string; testId?: string }) {
  const t = useText(appText);
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
      setState('copied');
    } catch {
      setState('failed');
    }
    window.setTimeout(() => setState('idle'), 1500);
  };
  return (
    <button type="button" className={`btn btn-ghost btn-xs ${props.className ?? ''}`} onClick={() => void copy()} data-testid={props.testId}>
      {state === 'copied' ? t('common.copied') : state === 'failed' ? t('common.copyFailed') : (props.label ?? t('common.copy'))}
    </button>
  );
}
