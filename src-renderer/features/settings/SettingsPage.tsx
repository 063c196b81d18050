// Settings: environment (Local / Remote with its base URL), the API key (masked, kept in the keychain, never
// shown again), test connection, keychain problems in plain words, UI language, theme (system, light, dark).
import { useState, type ReactNode } from 'react';
import { LANGUAGES, type Language } from '../../../src-shared/language.ts';
import type { EnvironmentName, SettingsState } from '../../../src-shared/ipc/settings.ts';
import { THEMES, type Theme } from '../../../src-shared/limits.ts';
import { appText, useText } from '../../i18n/text.ts';
import { applyTheme } from '../../lib/theme.ts';
import { Badge } from '../../ui/Badge.tsx';
import { ErrorLine } from '../../ui/ErrorLine.tsx';
import { Toggle } from '../../ui/Toggle.tsx';
import { submitWith } from '../../ui/submitWith.ts';
import { useClearKey, useSelectEnvironment, useSetKey, useSetLanguage, useSetRemote, useSetTheme, useSettings, useTestConnection } from './queries.ts';

function originOf(url: string): string | null {
  try {
    return new URL(url.trim()).origin;
  } catch {
    return null;
  }
}

function KeySection({ environment }: { environment: EnvironmentName }) {
  const t = useText(appText);
  const settings = useSettings().data;
  const setKey = useSetKey();
  const clearKey = useClearKey();
  const test = useTestConnection();
  const [key, setKeyText] = useState('');
  const [memoryOnly, setMemoryOnly] = useState(false);
  if (!settings) return null;
  const env = settings.environments[environment];
  const keychainDown = !settings.keychain.available;
  // A Remote key is bound to the address it is entered for, so there must be one first.
  const needsUrl = environment === 'remote' && !env.baseUrl;
  return (
    <section className="card" aria-labelledby={`key-${environment}`}>
      <h3 id={`key-${environment}`} className="card-title">
        {t('settings.keyFor', { env: t(`env.${environment}`) })}
      </h3>
      <p className="muted" data-testid={`key-state-${environment}`}>
        {env.keySet ? t('settings.keyStored', { masked: env.keyMasked ?? '••••' }) : t('settings.noKey')}
        {env.keyInMemoryOnly ? ` · ${t('settings.memoryOnlyNow')}` : ''}
      </p>
      {needsUrl ? (
        <p className="hint-warn" data-testid="key-needs-url-remote">
          {t('settings.remoteNeedsUrl')}
        </p>
      ) : null}
      {environment === 'remote' && env.keySet && env.keyOrigin ? (
        <p className="muted small" data-testid="key-origin-remote">
          {t('settings.keyBoundTo', { origin: env.keyOrigin })}
        </p>
      ) : null}
      <form
        className="row-gap wrap"
        onSubmit={(e) => {
          e.preventDefault();
          setKey.mutate({ environment, key, ...(memoryOnly || keychainDown ? { memoryOnly: true } : {}) }, { onSuccess: () => setKeyText('') });
        }}
      >
        <label className="sr-only" htmlFor={`key-input-${environment}`}>
          {t('settings.keyInput')}
        </label>
        <input
          id={`key-input-${environment}`}
          data-testid={`key-input-${environment}`}
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder="sk_…"
          value={key}
          onChange={(e) => setKeyText(e.target.value)}
          className="grow"
        />
        <button type="submit" className="btn btn-primary btn-sm" disabled={key.trim() === '' || setKey.isPending || needsUrl}>
          {t('settings.saveKey')}
        </button>
        {env.keySet ? (
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => clearKey.mutate({ environment })}>
            {t('settings.clearKey')}
          </button>
        ) : null}
      </form>
      {keychainDown ? (
        <Toggle label={t('settings.memoryOnlyForced')} checked disabled />
      ) : (
        <Toggle label={t('settings.memoryOnly')} checked={memoryOnly} onChange={setMemoryOnly} />
      )}
      {/* Without a keychain the key is not "stored in the keychain": say only what holds. */}
      <p className="muted small">{keychainDown ? t('settings.keyNeverShownNoKeychain') : t('settings.keyNeverShown')}</p>
      <ErrorLine error={setKey.error} />
      <div className="row-gap">
        <button type="button" className="btn btn-sm" data-testid={`test-connection-${environment}`} disabled={!env.keySet || test.isPending} onClick={() => test.mutate({ environment })}>
          {test.isPending ? t('settings.testing') : t('settings.testConnection')}
        </button>
        {test.data ? (
          test.data.ok ? (
            <span className="hint-ok" data-testid="connection-result">
              {t('settings.connectionOk', { ms: test.data.latencyMs })}
            </span>
          ) : (
            <span className="hint-danger" data-testid="connection-result">
              {test.data.error?.message ?? t('settings.connectionFailed')}
            </span>
          )
        ) : null}
      </div>
      <ErrorLine error={test.error} />
    </section>
  );
}

/** A card with one select: its title names it (for screen readers too). */
function SelectCard<T extends string>(props: { title: string; id: string; value: T; choices: readonly T[]; nameOf: (choice: T) => string; onChange: (value: T) => void; className?: string; children?: ReactNode }) {
  return (
    <section className="card">
      <h3 className="card-title">{props.title}</h3>
      <label className="sr-only" htmlFor={props.id}>
        {props.title}
      </label>
      <select id={props.id} data-testid={props.id} className={props.className} value={props.value} onChange={(e) => props.onChange(e.target.value as T)}>
        {props.choices.map((c) => (
          <option key={c} value={c}>
            {props.nameOf(c)}
          </option>
        ))}
      </select>
      {props.children}
    </section>
  );
}

function LanguageCard({ settings }: { settings: SettingsState }) {
  const t = useText(appText);
  const setLanguage = useSetLanguage();
  return (
    <SelectCard
      title={t('settings.language')}
      id="language-select"
      value={settings.language}
      choices={LANGUAGES}
      nameOf={(l) => (l === 'zh' ? '中文（简体）' : 'English')}
      onChange={(language: Language) => setLanguage.mutate({ language })}
    />
  );
}

function ThemeCard({ settings }: { settings: SettingsState }) {
  const t = useText(appText);
  const setTheme = useSetTheme();
  const choose = (theme: Theme) => {
    // At once on screen; main keeps it in settings.json for the next start.
    applyTheme(theme);
    setTheme.mutate({ theme });
  };
  return (
    <SelectCard
      title={t('settings.theme')}
      id="theme-select"
      className="input-medium"
      value={setTheme.isPending && setTheme.variables ? setTheme.variables.theme : settings.theme}
      choices={THEMES}
      nameOf={(theme) => t(`settings.themeOption.${theme}`)}
      onChange={choose}
    >
      {settings.theme === 'system' ? <p className="muted small">{t('settings.themeFollowsOs')}</p> : null}
      <ErrorLine error={setTheme.error} />
    </SelectCard>
  );
}

type OriginChange = { baseUrl: string; from: string; to: string };

/** The Remote address; a new address on another origin while a key is set names both origins before the key goes. */
function RemoteUrlForm({ settings, setRemote }: { settings: SettingsState; setRemote: ReturnType<typeof useSetRemote> }) {
  const t = useText(appText);
  const [remoteUrl, setRemoteUrl] = useState<string | null>(null);
  const [confirmOrigin, setConfirmOrigin] = useState<OriginChange | null>(null);
  const remote = settings.environments.remote;
  const submit = submitWith(() => {
    const baseUrl = remoteUrl ?? remote.baseUrl ?? '';
    const from = remote.keySet ? remote.keyOrigin : null;
    const to = originOf(baseUrl);
    if (from && to && from !== to) setConfirmOrigin({ baseUrl, from, to });
    else setRemote.mutate({ baseUrl });
  });
  return (
    <>
      <form className="row-gap wrap" onSubmit={submit}>
        <label htmlFor="remote-url" className="field-label">
          {t('settings.remoteUrl')}
        </label>
        <input id="remote-url" data-testid="remote-url" type="url" className="grow" placeholder="https://" value={remoteUrl ?? remote.baseUrl ?? ''} onChange={(e) => setRemoteUrl(e.target.value)} />
        <button type="submit" className="btn btn-sm">
          {t('common.save')}
        </button>
      </form>
      {confirmOrigin ? (
        <div className="one-time-key" role="alertdialog" aria-labelledby="remote-origin-confirm-text" data-testid="remote-origin-confirm">
          <p id="remote-origin-confirm-text">{t('settings.originChange', { from: confirmOrigin.from, to: confirmOrigin.to })}</p>
          <div className="row-gap">
            <button
              type="button"
              className="btn btn-sm btn-primary"
              data-testid="remote-origin-confirm-yes"
              onClick={() => {
                setRemote.mutate({ baseUrl: confirmOrigin.baseUrl });
                setConfirmOrigin(null);
              }}
            >
              {t('settings.originChangeYes')}
            </button>
            <button type="button" className="btn btn-sm btn-ghost" onClick={() => setConfirmOrigin(null)}>
              {t('common.cancel')}
            </button>
          </div>
        </div>
      ) : null}
    </>
  );
}

function EnvironmentCard({ settings }: { settings: SettingsState }) {
  const t = useText(appText);
  const selectEnv = useSelectEnvironment();
  const setRemote = useSetRemote();
  const local = settings.environments.local;
  // Shows the choice at once while main switches (the answer then confirms or reverts it).
  const shownEnvironment = selectEnv.isPending && selectEnv.variables ? selectEnv.variables.environment : settings.environment;
  return (
    <section className="card">
      <h3 className="card-title">{t('settings.environment')}</h3>
      <div className="segmented" role="radiogroup" aria-label={t('settings.environment')}>
        {(['local', 'remote'] as const).map((name) => (
          <label key={name} className={`segment ${shownEnvironment === name ? 'segment-on' : ''}`}>
            <input type="radio" name="environment" value={name} data-testid={`env-${name}`} checked={shownEnvironment === name} onChange={() => selectEnv.mutate({ environment: name })} />
            {t(`env.${name}`)}
          </label>
        ))}
      </div>
      <p className="muted small">
        {t('settings.localExplain')} <Badge tone={local.serviceStatus === 'running' ? 'ok' : 'warn'}>{t(`env.service.${local.serviceStatus}`)}</Badge>{' '}
        {local.baseUrl ? <code>{local.baseUrl}</code> : null}
      </p>
      {local.serviceError ? <p className="hint-danger">{local.serviceError}</p> : null}
      <RemoteUrlForm settings={settings} setRemote={setRemote} />
      {settings.environments.remote.insecure ? (
        <p className="hint-warn" data-testid="remote-insecure-warning">
          {t('settings.remoteInsecure')}
        </p>
      ) : null}
      <ErrorLine error={setRemote.error ?? selectEnv.error} />
    </section>
  );
}

function KeychainCard({ settings }: { settings: SettingsState }) {
  const t = useText(appText);
  return (
    <section className="card" data-testid="keychain-status">
      <h3 className="card-title">{t('settings.keychain')}</h3>
      {settings.keychain.available ? (
        <p className="hint-ok">{t('settings.keychainOk')}</p>
      ) : (
        <>
          <p className="hint-danger">{settings.keychain.problem ?? t('settings.keychainDown')}</p>
          <p className="muted">{t('settings.keychainMemoryOption')}</p>
        </>
      )}
    </section>
  );
}

export function SettingsPage() {
  const t = useText(appText);
  const settings = useSettings();
  const s = settings.data;
  if (!s) return <div className="page">{settings.isError ? <ErrorLine error={settings.error} /> : t('common.loading')}</div>;
  return (
    <div className="page settings-page">
      <h1 className="page-title">{t('settings.title')}</h1>
      <LanguageCard settings={s} />
      <ThemeCard settings={s} />
      <EnvironmentCard settings={s} />
      <KeychainCard settings={s} />
      <KeySection environment="local" />
      <KeySection environment="remote" />
    </div>
  );
}
