// Environments (README, Using a real service): Local, the bundled service and the default, seeded on first start so the app
// works with no set-up; Remote, a base URL and a key. A key belongs to the environment it was entered for.
import { API_SCOPES } from '../../src-shared/api.ts';
import type { EnvironmentInfo, EnvironmentName, ServiceStatus } from '../../src-shared/ipc/settings.ts';
import type { Language } from '../../src-shared/language.ts';
import { ServiceClient } from '../api/service-client.ts';
import { StudioError } from '../domain/errors.ts';
import type { LocalServiceHost } from '../core/studio-app.ts';
import { AdminClient } from '../local-console/admin-client.ts';
import type { SecretStore } from '../secrets/secret-store.ts';
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
  onServiceStatus: (state: LocalServiceState) => void;
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

  constructor(deps: EnvironmentsDeps) {
    this.deps = deps;
    deps.localService.onStatus((s) => {
      this.local = { status: s.status, baseUrl: s.baseUrl ?? this.local.baseUrl, error: s.error };
      if (s.baseUrl && this.adminToken) this.admin = new AdminClient(s.baseUrl, this.adminToken);
      deps.onServiceStatus(this.local);
    });
  }

  get localState(): LocalServiceState {
    return this.local;
  }

  /** Starts the bundled service and seeds its account and key if needed. Safe to await many times. */
  startLocal(): Promise<void> {
    this.ready ??= (async () => {
      this.local = { status: 'starting', baseUrl: null, error: null };
      this.deps.onServiceStatus(this.local);
      try {
        const { baseUrl, adminToken } = await this.deps.localService.start();
        this.adminToken = adminToken;
        this.admin = new AdminClient(baseUrl, adminToken);
        this.local = { status: 'running', baseUrl, error: null };
        this.deps.onServiceStatus(this.local);
        await this.provisionLocal();
      } catch (error) {
        this.local = { status: 'failed', baseUrl: this.local.baseUrl, error: error instanceof Error ? error.message : String(error) };
        this.deps.onServiceStatus(this.local);
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

  /** A client for the environment with its own key; a clear error when it cannot be used yet. */
  async client(environment: EnvironmentName, language: Language, overrides: { generateTimeoutMs?: number } = {}): Promise<ServiceClient> {
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
    return {
      name: environment,
      baseUrl: this.baseUrl(environment),
      keySet: key !== null,
      keyMasked: key ? maskKey(key) : null,
      keyInMemoryOnly: key !== null && (this.deps.secrets.isMemoryOnly(keyAccount(environment)) || this.deps.secrets.status().backend === 'memory'),
    };
  }

  async setKey(environment: EnvironmentName, key: string, memoryOnly: boolean): Promise<void> {
    await this.deps.secrets.set(keyAccount(environment), key, { memoryOnly });
    if (environment === 'local') this.deps.settings.update((d) => void (d.local.keyId = null));
  }

  async clearKey(environment: EnvironmentName): Promise<void> {
    await this.deps.secrets.delete(keyAccount(environment));
  }

  /**
   * A new Remote address. When its origin changes, the stored Remote key is removed: it was entered for
   * the old origin and must never be sent to another one (docs/decisions.md, Remote key binding).
   */
  async setRemoteBaseUrl(url: string): Promise<void> {
    const next = url.trim().replace(/\/+$/, '');
    const previous = this.deps.settings.get().remoteBaseUrl;
    if (previous && new URL(previous).origin !== new URL(next).origin) await this.deps.secrets.delete(keyAccount('remote'));
    this.deps.settings.update((d) => void (d.remoteBaseUrl = next));
  }

  /** Marks the key the app uses for Local as the one the console just created. */
  rememberLocalKeyId(keyId: string): void {
    this.deps.settings.update((d) => void (d.local.keyId = keyId));
  }

  async stop(): Promise<void> {
    await this.deps.localService.stop();
  }
}
