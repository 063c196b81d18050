// The current environment, always visible in the header (Local with the bundled service's state, or Remote).
import { useAppStore } from '../../lib/app-store.ts';
import { appText, useText } from '../../i18n/text.ts';
import { useSettings } from './queries.ts';

export function EnvironmentBadge() {
  const t = useText(appText);
  const settings = useSettings();
  const setTab = useAppStore((s) => s.setTab);
  const s = settings.data;
  if (!s) {
    return (
      <span className="env-badge env-unknown" data-testid="environment-badge">
        {settings.isError ? t('env.disconnected') : t('common.loading')}
      </span>
    );
  }
  const env = s.environments[s.environment];
  const status = s.environment === 'local' ? s.environments.local.serviceStatus : null;
  return (
    <button
      type="button"
      className={`env-badge env-${s.environment} ${status && status !== 'running' ? 'env-problem' : ''}`}
      data-testid="environment-badge"
      data-environment={s.environment}
      title={env.baseUrl ?? ''}
      onClick={() => setTab('settings')}
    >
      <span className="env-dot" aria-hidden />
      {t(`env.${s.environment}`)}
      {status && status !== 'running' ? ` · ${t(`env.service.${status}`)}` : ''}
      {!env.keySet ? ` · ${t('env.noKey')}` : ''}
    </button>
  );
}
