// The Catalog's questions before it loses or pays for something (leaving unsaved edits, Start on shots already made):
// a modal dialog (focus held, Escape is the way back) with the question, its answers in a row that wraps on a narrow
// window, and the way back in the foot.
import type { ReactNode } from 'react';
import { Dialog } from '../../ui/Dialog.tsx';

interface AskDialogProps {
  title: string;
  testId: string;
  /** The way back (Stay, Cancel): the foot's button, Escape and the close button. */
  back: { label: string; testId: string; go: () => void };
  /** While an answer is on its way, nothing closes the dialog. */
  busy?: boolean;
  /** The answers that go on, the one advised first. */
  answers: ReactNode;
  children: ReactNode;
}

export function AskDialog(props: AskDialogProps) {
  const { back } = props;
  const busy = props.busy ?? false;
  return (
    <Dialog
      title={props.title}
      testId={props.testId}
      closeLabel={back.label}
      busy={busy}
      onClose={back.go}
      footer={
        <button type="button" className="btn" data-testid={back.testId} disabled={busy} onClick={back.go}>
          {back.label}
        </button>
      }
    >
      {props.children}
      <div className="row-gap wrap">{props.answers}</div>
    </Dialog>
  );
}
