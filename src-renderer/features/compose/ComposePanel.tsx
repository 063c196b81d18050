// The compose panel: prompt, model and options, purpose, reference tray, live estimate with the balance after
// this run, Generate. Ctrl/Cmd+Enter generates from anywhere in the panel. The reference tray is pinned above
// the estimate (the fields above it scroll), so it is a drop target in view at every window size.
import { useMemo, useState, type KeyboardEvent } from 'react';
import { errorMessage, type ApiErrorValue } from '../../../src-shared/errors.ts';
import { useAppStore } from '../../lib/app-store.ts';
import { appText, useText } from '../../i18n/text.ts';
import type { DesktopError } from '../../lib/desktop.ts';
import { osOf } from '../../lib/platform.ts';
import { BalanceAfter, useBalance } from '../money/index.ts';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { ErrorBanner } from '../../ui/ErrorBanner.tsx';
import { checkDraft, resolveModel } from './draft.ts';
import { fileDropHandlers } from './drop-recall.ts';
import { useStartGeneration } from './generate.ts';
import { EstimateBox } from './EstimateBox.tsx';
import { ModelField } from './ModelField.tsx';
import { OptionFields } from './OptionFields.tsx';
import { PromptField } from './PromptField.tsx';
import { PurposeField } from './PurposeField.tsx';
import { ReferenceTray } from './ReferenceTray.tsx';
import { SEND_BLOCK_ID, SendBlockReason, useSendBlock } from './send-block.tsx';
import { SessionBar } from './SessionBar.tsx';
import { useComposeStore } from './store.ts';

export function ComposePanel() {
  const t = useText(appText);
  const language = useLanguage();
  const draft = useComposeStore((s) => s.draft);
  const session = useComposeStore((s) => s.session);
  const serviceSessionId = useComposeStore((s) => s.serviceSessionId);
  const check = useMemo(() => checkDraft(draft), [draft]);
  const block = useSendBlock(check);
  const { model, auto } = useMemo(() => resolveModel(draft), [draft]);
  const start = useStartGeneration();
  const [refused, setRefused] = useState<ApiErrorValue | null>(null);
  const balance = useBalance();
  const setTab = useAppStore((s) => s.setTab);
  /** The draft whose estimate exceeds the balance, waiting for "send anyway" (a changed draft asks again). */
  const [overBudgetFor, setOverBudgetFor] = useState<typeof draft | null>(null);
  const overBudget = check.ok && balance.known && check.estimate.total > balance.credits ? { estimate: check.estimate.total, balance: balance.credits } : null;
  const confirmingOverBudget = overBudget !== null && overBudgetFor === draft;

  const generate = (confirmedOverBudget = false) => {
    // Generate is disabled with the reason beside it (an empty form, deleted references): nothing to refuse here.
    if (start.isPending || block) return;
    if (!check.ok) {
      // Refused before sending, with the service's own code and message (nothing is reserved or sent).
      setRefused(check.error);
      return;
    }
    setRefused(null);
    if (overBudget && !confirmedOverBudget) {
      // The service would answer 402 and charge nothing: say so before sending, and let the designer decide.
      setOverBudgetFor(draft);
      return;
    }
    setOverBudgetFor(null);
    // The run's session becomes the one continued (useStartGeneration), also if this panel has gone by then.
    start.mutate({
      // spec §4.1: session_id groups generations; a typed service id goes in the body, a local one to main.
      request: !session && serviceSessionId ? { ...check.request, session_id: serviceSessionId } : check.request,
      ...(session ? { sessionId: session.id } : {}),
    });
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      generate();
    }
  };

  const startError = start.error as DesktopError | null;
  const shortcut = osOf(navigator.platform) === 'mac' ? '⌘↩' : 'Ctrl+Enter';

  return (
    <form
      className="compose-panel"
      aria-label={t('compose.title')}
      onKeyDown={onKeyDown}
      {...fileDropHandlers()}
      onSubmit={(e) => {
        e.preventDefault();
        generate();
      }}
    >
      <div className="panel-scroll">
        <SessionBar />
        <PromptField />
        <ModelField auto={auto} />
        <OptionFields model={model} />
        <PurposeField />
      </div>
      <div className="compose-tray">
        <ReferenceTray model={model} />
      </div>
      <div className="compose-foot">
        <EstimateBox check={check} />
        {check.ok ? <BalanceAfter estimate={check.estimate.total} /> : null}
        {confirmingOverBudget && overBudget ? (
          <div className="over-budget" role="alertdialog" aria-labelledby="over-budget-title" aria-describedby="over-budget-text" data-testid="over-budget-confirm">
            <strong id="over-budget-title">{t('money.overTitle')}</strong>
            <p id="over-budget-text">{t('money.overExplain', overBudget)}</p>
            <div className="row-gap wrap">
              <button type="button" className="btn btn-sm" data-testid="over-budget-send" onClick={() => generate(true)}>
                {t('money.sendAnyway')}
              </button>
              <button type="button" className="btn btn-sm btn-primary" onClick={() => setTab('local')}>
                {t('money.topUp')}
              </button>
              <button type="button" className="btn btn-ghost btn-sm" data-testid="over-budget-cancel" onClick={() => setOverBudgetFor(null)}>
                {t('common.cancel')}
              </button>
            </div>
          </div>
        ) : null}
        {refused ? (
          <ErrorBanner
            title={t('errors.refusedBeforeSending')}
            error={{ code: refused.code, message: errorMessage(refused.code, refused.params, language) }}
          />
        ) : null}
        {startError ? <ErrorBanner error={startError.ipc ?? { code: 'unknown', message: String(startError) }} /> : null}
        {block ? <SendBlockReason block={block} /> : null}
        <button
          type="submit"
          className="btn btn-primary btn-generate"
          data-testid="generate"
          disabled={start.isPending || block !== null}
          aria-describedby={block ? SEND_BLOCK_ID : undefined}
        >
          {start.isPending ? t('compose.starting') : t('compose.generate')}
          <kbd className="kbd">{shortcut}</kbd>
        </button>
      </div>
    </form>
  );
}
