// A day typed in the UI language's pattern (2026/11/23 in Chinese, 11/23/2026 in English), with the browser's
// calendar a click away. Not <input type="date">: Chromium writes that field in the browser's locale whatever the
// page's or the input's lang says, so a Chinese UI on an English system showed mm/dd/yyyy.
import { useRef, useState, type KeyboardEvent } from 'react';
import { isoDay, useFormats } from '../i18n/format.ts';
import { appText, useText } from '../i18n/text.ts';

interface DateFieldProps {
  /** Local midnight of the day shown, or undefined for none. */
  value: number | undefined;
  /** The day's local midnight, or undefined when the field is emptied. */
  onChange: (day: number | undefined) => void;
  testId?: string;
}

export function DateField({ value, onChange, testId }: DateFieldProps) {
  const t = useText(appText);
  const format = useFormats();
  // What is typed, while it is being typed; otherwise the field shows `value`.
  const [draft, setDraft] = useState<string | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const shown = draft ?? (value === undefined ? '' : format.day(value));
  const invalid = draft !== null && draft.trim() !== '' && format.parseDay(draft) === null;

  const commit = () => {
    if (draft === null) return;
    if (draft.trim() === '') onChange(undefined);
    else {
      const day = format.parseDay(draft);
      if (day === null) return;
      onChange(day);
    }
    setDraft(null);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') commit();
    if (e.key === 'Escape' && draft !== null) {
      e.stopPropagation();
      setDraft(null);
    }
  };

  return (
    <span className="date-field">
      <input
        type="text"
        inputMode="numeric"
        data-testid={testId}
        value={shown}
        placeholder={t('common.datePattern')}
        aria-invalid={invalid || undefined}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={onKeyDown}
      />
      <button type="button" className="btn btn-ghost btn-xs date-field-pick" aria-label={t('common.pickDate')} title={t('common.pickDate')} onClick={() => picker.current?.showPicker()}>
        <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
          <rect x="2" y="3" width="12" height="11" rx="1.5" fill="none" stroke="currentColor" strokeWidth="1.4" />
          <path d="M2 6.5h12M5 1.5v3M11 1.5v3" stroke="currentColor" strokeWidth="1.4" />
        </svg>
      </button>
      {/* Only its calendar is used: the day picked there is written into the field above in the UI's pattern. */}
      <input
        ref={picker}
        type="date"
        className="date-field-native"
        tabIndex={-1}
        aria-hidden="true"
        value={value === undefined ? '' : isoDay(value)}
        onChange={(e) => onChange(e.target.value ? format.parseDay(e.target.value) ?? undefined : undefined)}
      />
    </span>
  );
}
