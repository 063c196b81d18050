// Environments (README, Using a real service): Local, the bundled service and the default, seeded on first start so the app
// works with no set-up; Remote, a base URL and a key. A key belongs to the environment it was entered for.
import { API_SCOPES } from '../../src-shared/api.ts';
import type { EnvironmentInfo, EnvironmentName, ServiceStatus } from '../../src-shared/ipc/settings.ts';
import type { Language } from '../../src-shared/language.ts';
import { ServiceClient } from '../clients/service-client.ts';
import { StudioError } from '../domain/errors.ts';
import { checkRemoteBaseUrl, originOf } from '../domain/remote-url.ts';
import type { LocalServiceHost } from '../ports/local-service-host.ts';
import { AdminClient } from '../clients/admin-client.ts';
import type { SecretStore } from '../secrets/index.ts';
import type { SettingsStore } from './settings-store.ts';

export const LOCAL_SEED = { credits: 10_000, ageDays: 30 } as const;

export function keyAccount(environment: EnvironmentName): `env:${EnvironmentName}:api-key` {
  return `env:${environment}:api-key`;
}

/** The last four characters only: the renderer never receives a key or its prefix (DESIGN.md §2 rule 3). */
export function maskKey(key: string): string {
  return `••••${key.slice(-4)}`;
}

export interface LocalServiceState {
  status: ServiceStatus;
  baseUrl: string | null;
  error: string | null;
}

export interface EnvironmentsDeps {
  settings: SettingsStore;
  secrets: SecretStore;
  localService: LocalServiceHost;
  clientOptions?: { generateTimeoutMs?: number };
  /**
   * The local account as last recorded outside settings.json (library.db's app_meta), so a lost or damaged
   * settings file recovers the account instead of seeding a new one (docs/main-process.md).
   */
  rememberedLocalAccount?: () => { accountId: string; keyId: string | null } | null;
  onLocalAccountRecovered?: (accountId: string) => void;
}

export class Environments {
  private readonly deps: EnvironmentsDeps;
  private local: LocalServiceState = { status: 'stopped', baseUrl: null, error: null };
  private admin: AdminClient | null = null;
  private adminToken: string | null = null;
  private ready: Promise<void> | null = null;
  private readonly statusListeners = new Set<(state: LocalServiceState) => void>();

  constructor(deps: EnvironmentsDeps) {
    this.deps = deps;
    deps.localService.onStatus((s) => {
      this.local = { status: s.status, baseUrl: s.baseUrl ?? this.local.baseUrl, error: s.error };
      if (s.baseUrl && this.adminToken) this.admin = new AdminClient(s.baseUrl, this.adminToken);
      this.tellStatus();
      // The host brought the service up by itself after a start that failed (its cool-down): finish that start.
      if (s.status === 'running' && this.ready === null) void this.startLocal().catch(() => undefined);
    });
  }

  /** Every change of the local service's state (starting, running, restarting, failed) from now on. */
  onServiceStatus(listener: (state: LocalServiceState) => void): void {
    this.statusListeners.add(listener);
  }

  private tellStatus(): void {
    for (const listener of this.statusListeners) listener(this.local);
  }

  get localState(): LocalServiceState {
    return this.local;
  }

  /** Starts the bundled service and seeds its account and key if needed. Safe to await many times. */
  startLocal(): Promise<void> {
    this.ready ??= (async () => {
      this.local = { status: 'starting', baseUrl: null, error: null };
      this.tellStatus();
      try {
        const { baseUrl, adminToken } = await this.deps.localService.start();
        this.adminToken = adminToken;
        this.admin = new AdminClient(baseUrl, adminToken);
        this.local = { status: 'running', baseUrl, error: null };
        this.tellStatus();
        await this.provisionLocal();
      } catch (error) {
        this.local = { status: 'failed', baseUrl: this.local.baseUrl, error: error instanceof Error ? error.message : String(error) };
        this.tellStatus();
        this.ready = null;
        throw error;
      }
    })();
    return this.ready;
  }

  /** The admin token of the running local service (main only: the inspector configures webhooks with it). */
  localAdminToken(): string | null {
    return this.localAdmin() ? this.adminToken : null;
  }

  /** The admin client of the running local service, or null. */
  localAdmin(): AdminClient | null {
    return this.local.status === 'running' || this.local.status === 'restarting' ? this.admin : null;
  }

  /**
   * First start (or a local service whose data was wiped, or a key lost with a memory-only keychain):
   * an account with 10000 credits, 30 days old, and an all-scope key kept in the keychain.
   */
  private async provisionLocal(): Promise<void> {
    const admin = this.admin;
    if (!admin) return;
    const { settings, secrets } = this.deps;
    let accountId = settings.get().local.accountId;
    let keyId = settings.get().local.keyId;
    const remembered = accountId ? null : (this.deps.rememberedLocalAccount?.() ?? null);
    if (remembered) {
      // Settings lost the account but library.db remembers it: reuse it (its balance, its images) if the
      // bundled service still has it, and its key from the keychain, rather than seeding a stranger.
      accountId = remembered.accountId;
      keyId = remembered.keyId;
    }
    if (accountId) {
      try {
        await admin.request('GET', `/admin/accounts/${encodeURIComponent(accountId)}`);
      } catch (error) {
        if (!(error instanceof StudioError) || error.status !== 404) throw error;
        accountId = null;
      }
    }
    const storedKey = await secrets.get(keyAccount('local'));
    if (remembered && accountId) {
      const recovered = accountId;
      const recoveredKeyId = storedKey ? keyId : null;
      settings.update((d) => {
        d.local = { accountId: recovered, keyId: recoveredKeyId };
      });
      this.deps.onLocalAccountRecovered?.(recovered);
    }
    // A key the user entered or created for Local is kept; only a missing one is replaced.
    if (accountId && storedKey) return;
    if (!accountId) {
      const account = await admin.request<{ id: string }>('POST', '/admin/accounts', { credits: LOCAL_SEED.credits, age_days: LOCAL_SEED.ageDays });
      accountId = account.id;
    }
    const key = await admin.request<{ id: string; key: string }>('POST', `/admin/accounts/${encodeURIComponent(accountId)}/api-keys`, {
      name: 'Image Studio',
      scopes: [...API_SCOPES],
    });
    await secrets.set(keyAccount('local'), key.key);
    const seededAccount = accountId;
    settings.update((d) => {
      d.local = { accountId: seededAccount, keyId: key.id };
    });
  }

  baseUrl(environment: EnvironmentName): string | null {
    return environment === 'local' ? this.local.baseUrl : this.deps.settings.get().remoteBaseUrl;
  }

  /**
   * The base URL and key of an environment, only when the key may go there: the service runs (Local), there is
   * an address and a key, and a Remote key goes only to the origin it was entered for, over https (or http on
   * this computer). Every use of a key (the API client, the inspector's publication fetch) comes through here.
   */
  async credentials(environment: EnvironmentName): Promise<{ baseUrl: string; apiKey: string }> {
    const baseUrl = this.baseUrl(environment);
    if (environment === 'local' && this.local.status !== 'running') {
      const starting = this.local.status === 'starting' || this.local.status === 'restarting';
      throw new StudioError('service_not_running', { ...(starting ? { starting } : {}), ...(this.local.error ? { cause: this.local.error } : {}) }, { details: { serviceStatus: this.local.status } });
    }
    if (!baseUrl) {
      throw environment === 'local'
        ? new StudioError('service_not_running')
        : new StudioError('no_base_url');
    }
    const apiKey = await this.deps.secrets.get(keyAccount(environment));
    if (!apiKey) {
      throw new StudioError('no_api_key', { environment });
    }
    if (environment === 'remote') this.checkRemoteKeyGoesTo(baseUrl);
    return { baseUrl, apiKey };
  }

  /** A client for the environment with its own key; a clear error when it cannot be used yet. */
  async client(environment: EnvironmentName, language: Language, overrides: { generateTimeoutMs?: number } = {}): Promise<ServiceClient> {
    const { baseUrl, apiKey } = await this.credentials(environment);
    return new ServiceClient({
      environment,
      baseUrl,
      apiKey,
      language,
      ...(overrides.generateTimeoutMs ?? this.deps.clientOptions?.generateTimeoutMs ? { generateTimeoutMs: overrides.generateTimeoutMs ?? this.deps.clientOptions?.generateTimeoutMs } : {}),
    });
  }

  async info(environment: EnvironmentName): Promise<EnvironmentInfo> {
    const key = await this.deps.secrets.get(keyAccount(environment));
    const baseUrl = this.baseUrl(environment);
    const remote = environment === 'remote' && baseUrl ? checkRemoteBaseUrl(baseUrl) : null;
    return {
      name: environment,
      baseUrl,
      keySet: key !== null,
      keyMasked: key ? maskKey(key) : null,
      keyInMemoryOnly: key !== null && (this.deps.secrets.isMemoryOnly(keyAccount(environment)) || this.deps.secrets.status().backend === 'memory'),
      keyOrigin: key === null ? null : environment === 'local' ? originOf(baseUrl) : this.remoteKeyOrigin(),
      insecure: remote !== null && (!remote.ok || remote.insecureLoopback),
    };
  }

  async setKey(environment: EnvironmentName, key: string, memoryOnly: boolean): Promise<void> {
    if (environment === 'remote') {
      // A key is bound to the origin it is entered for; with no address yet there is nothing to bind to, and
      // binding it later would send it to whatever address comes next.
      const baseUrl = this.deps.settings.get().remoteBaseUrl;
      const checked = baseUrl ? checkRemoteBaseUrl(baseUrl) : null;
      if (!checked) throw new StudioError('key_needs_base_url');
      if (!checked.ok) throw new StudioError(checked.code, checked.params);
      await this.deps.secrets.set(keyAccount('remote'), key, { memoryOnly });
      this.deps.settings.update((d) => void (d.remoteKeyOrigin = checked.origin));
      return;
    }
    await this.deps.secrets.set(keyAccount(environment), key, { memoryOnly });
    this.deps.settings.update((d) => void (d.local.keyId = null));
  }

  async clearKey(environment: EnvironmentName): Promise<void> {
    await this.deps.secrets.delete(keyAccount(environment));
    if (environment === 'remote') this.deps.settings.update((d) => void (d.remoteKeyOrigin = null));
  }

  /**
   * A new Remote address: https://, or http:// for this computer only. When its origin is not the one the
   * stored Remote key was entered for, the key is removed and must be entered again for the new origin
   * (the settings screen names both origins before it asks; docs/decisions.md, Remote key binding).
   */
  async setRemoteBaseUrl(url: string): Promise<void> {
    const checked = checkRemoteBaseUrl(url);
    if (!checked.ok) throw new StudioError(checked.code, checked.params);
    const hasKey = (await this.deps.secrets.get(keyAccount('remote'))) !== null;
    const keyOrigin = hasKey ? this.remoteKeyOrigin() : null;
    if (hasKey && keyOrigin !== checked.origin) await this.deps.secrets.delete(keyAccount('remote'));
    const bound = hasKey && keyOrigin === checked.origin ? keyOrigin : null;
    this.deps.settings.update((d) => {
      d.remoteBaseUrl = checked.url;
      d.remoteKeyOrigin = bound;
    });
  }

  /**
   * The origin the Remote key is bound to. A key stored by an earlier version has no recorded origin; it
   * is bound to the address it has been used with, the current one (once, on first use).
   */
  private remoteKeyOrigin(): string | null {
    const stored = this.deps.settings.get();
    if (stored.remoteKeyOrigin) return stored.remoteKeyOrigin;
    const adopted = originOf(stored.remoteBaseUrl);
    if (adopted) this.deps.settings.update((d) => void (d.remoteKeyOrigin = adopted));
    return adopted;
  }

  /** Refuses before any request when the Remote key would leave its origin or travel in clear text. */
  private checkRemoteKeyGoesTo(baseUrl: string): void {
    const checked = checkRemoteBaseUrl(baseUrl);
    if (!checked.ok) throw new StudioError(checked.code, checked.params);
    const keyOrigin = this.remoteKeyOrigin();
    if (keyOrigin !== checked.origin) throw new StudioError('key_origin_mismatch', { keyOrigin, origin: checked.origin });
  }

  /** Marks the key the app uses for Local as the one the console just created. */
  rememberLocalKeyId(keyId: string): void {
    this.deps.settings.update((d) => void (d.local.keyId = keyId));
  }

  async stop(): Promise<void> {
    await this.deps.localService.stop();
  }
}
