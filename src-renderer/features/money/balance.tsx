// Money at a glance: the Local balance (from the local console's state, the only place the app knows it) in the
// header and beside the estimate. Remote has no balance API (spec), so nothing is made up there: the header
// shows nothing and the estimate says the balance is unknown.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useAppStore } from '../../lib/app-store.ts';
import { useFormats } from '../../i18n/format.ts';
import { appText, useText } from '../../i18n/text.ts';
import { call, onEvent } from '../../lib/desktop.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useSettings } from '../settings/index.ts';

export type Balance =
  | { known: true; credits: number; reserved: number }
  | { known: false; reason: 'remote' | 'loading' | 'unavailable' };

/** The balance of the current environment: known on Local (while its service runs), never on Remote. */
export function useBalance(): Balance {
  const settings = useSettings().data;
  const local = settings?.environment === 'local' && settings.environments.local.serviceStatus === 'running';
  // The same cache entry as the local console: a top-up there shows here at once.
  const status = useQuery({ queryKey: queryKeys.localStatus(), queryFn: () => call('localStatus', {}), enabled: local, staleTime: 2_000 });
  if (!settings) return { known: false, reason: 'loading' };
  if (settings.environment === 'remote') return { known: false, reason: 'remote' };
  if (!status.data) return { known: false, reason: status.isError || !local ? 'unavailable' : 'loading' };
  return { known: true, credits: status.data.account.credits, reserved: status.data.account.reserved };
}

/**
 * Keeps the balance live: refreshed when a run is sent (the service reserves), when it settles, and on library
 * and settings events (coalesced, since a run's downloads send several).
 */
export function useBalanceEvents(): void {
  const client = useQueryClient();
  useEffect(() => {
    let timer: number | null = null;
    const refresh = () => {
      if (timer !== null) window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        timer = null;
        void client.invalidateQueries({ queryKey: queryKeys.localStatus() });
      }, 150);
    };
    const offs = [
      onEvent('generation:progress', (p) => {
        if (p.phase === 'waiting' || p.phase === 'done' || p.status !== 'running') refresh();
      }),
      onEvent('library:changed', refresh),
      onEvent('settings:changed', refresh),
    ];
    return () => {
      if (timer !== null) window.clearTimeout(timer);
      for (const off of offs) off();
    };
  }, [client]);
}

/** The header's balance (Local only); opens the local console, where it can be topped up. */
export function BalanceBadge() {
  const t = useText(appText);
  const format = useFormats();
  const balance = useBalance();
  const setTab = useAppStore((s) => s.setTab);
  useBalanceEvents();
  if (!balance.known) return null;
  return (
    <button
      type="button"
      className="balance-badge"
      data-testid="balance"
      data-credits={balance.credits}
      title={balance.reserved > 0 ? `${t('money.balanceTitle')} ${t('money.reserved', { value: format.number(balance.reserved) })}` : t('money.balanceTitle')}
      onClick={() => setTab('local')}
    >
      <span className="balance-label">{t('money.balance')}</span>
      <span className="balance-value">{t('money.balanceValue', { value: format.number(balance.credits) })}</span>
    </button>
  );
}

/** "After this run" beside the estimate; on Remote, says the balance is unknown instead of guessing. */
export function BalanceAfter({ estimate }: { estimate: number }) {
  const t = useText(appText);
  const format = useFormats();
  const balance = useBalance();
  if (!balance.known) {
    if (balance.reason !== 'remote') return null;
    return (
      <p className="balance-after muted small" data-testid="balance-after" data-known="false">
        {t('money.unknownRemote')}
      </p>
    );
  }
  const after = balance.credits - estimate;
  return (
    <p className={`balance-after small ${after < 0 ? 'balance-short' : 'muted'}`} data-testid="balance-after" data-known="true" data-after={after}>
      {after < 0 ? t('money.afterShort', { value: format.number(-after) }) : t('money.after', { value: format.number(after) })}
    </p>
  );
}
