import { PROMPT_MAX_CODE_POINTS } from '../../../src-shared/catalog.ts';
import { codePointLength } from '../../../src-shared/validation.ts';
import { appText, useText } from '../../i18n/text.ts';
import { Field } from '../../ui/Field.tsx';
import { useComposeStore } from './store.ts';

export function PromptField() {
  const t = useText(appText);
  const prompt = useComposeStore((s) => s.draft.prompt);
  const update = useComposeStore((s) => s.update);
  // spec §8: the limit counts characters (code points), so an emoji or a CJK character counts once.
  const length = codePointLength(prompt);
  const over = length > PROMPT_MAX_CODE_POINTS;
  return (
    <Field
      id="compose-prompt"
      label={t('compose.prompt')}
      aside={
        <span className={`counter ${over ? 'counter-over' : ''}`} data-testid="prompt-counter" aria-live="polite">
          {length} / {PROMPT_MAX_CODE_POINTS}
        </span>
      }
    >
      <textarea
        id="compose-prompt"
        data-testid="prompt"
        className="prompt-input"
        value={prompt}
        rows={6}
        placeholder={t('compose.promptPlaceholder')}
        aria-invalid={over}
        onChange={(e) => update({ prompt: e.target.value })}
      />
    </Field>
  );
}
