// The harness's DesktopShell: the recording shell, whose folder chooser asks the person at the page (folder-prompt.ts)
// until a script sets an answer through POST /harness/shell-answers; from then on the script's answer is used, as
// before the prompt existed, so scripted tests never wait for a person.
import { RecordingShell, type ChooseFolderRequest, type SaveDialogRequest } from '../ports/desktop-shell.ts';
import type { FolderPrompt } from './folder-prompt.ts';
import type { ShellAnswers } from './harness-server.ts';

export class HarnessShell extends RecordingShell {
  private scripted = false;
  private readonly prompt: FolderPrompt;

  constructor(saveTo: (request: SaveDialogRequest) => string | null, prompt: FolderPrompt) {
    // The harness page runs in a browser: nothing main writes to a clipboard reaches the user.
    super(saveTo, { clipboardReachesUser: false });
    this.prompt = prompt;
  }

  /** POST /harness/shell-answers: the chooser answers this from now on (null = cancel). */
  setScriptedAnswers(answers: ShellAnswers): void {
    this.scripted = true;
    this.chooseFolderAnswer = answers.chooseFolder;
  }

  override chooseFolder(request: ChooseFolderRequest): Promise<string | null> {
    if (this.scripted) return super.chooseFolder(request);
    this.calls.push({ kind: 'chooseFolder', request });
    return this.prompt.ask(request);
  }
}
