// A question asked in place, not in a modal: the dangerous answer and the way back (reset a list, delete a list,
// cancel a batch). While `busy` the dangerous answer cannot be given twice.
interface ConfirmBoxProps {
  label: string;
  question: string;
  confirmLabel: string;
  keepLabel: string;
  confirmTestId: string;
  testId?: string;
  busy: boolean;
  onConfirm: () => void;
  onKeep: () => void;
}

export function ConfirmBox(props: ConfirmBoxProps) {
  return (
    <div className="cancel-confirm" role="group" aria-label={props.label} data-testid={props.testId}>
      <p>{props.question}</p>
      <div className="row-gap">
        <button type="button" className="btn btn-sm btn-danger" data-testid={props.confirmTestId} disabled={props.busy} onClick={props.onConfirm}>
          {props.confirmLabel}
        </button>
        <button type="button" className="btn btn-sm" onClick={props.onKeep}>
          {props.keepLabel}
        </button>
      </div>
    </div>
  );
}
