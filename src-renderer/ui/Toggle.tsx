import type { ReactNode } from 'react';

/** A check box with its words after it, the whole line clickable; without `onChange` it only shows a state. */
export function Toggle(props: { label: ReactNode; checked: boolean; onChange?: (checked: boolean) => void; testId?: string; disabled?: boolean }) {
  const { onChange } = props;
  return (
    <label className="toggle">
      <input type="checkbox" data-testid={props.testId} checked={props.checked} readOnly={!onChange} disabled={props.disabled} onChange={onChange ? (e) => onChange(e.target.checked) : undefined} />
      {props.label}
    </label>
  );
}
