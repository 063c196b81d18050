// One interface for secrets (API keys per environment, the inspector's webhook secret), with the OS keychain
// (keytar) as the backend and memory as the fallback for a run without a keychain. DESIGN.md §2 rule 3:
// secrets stay in main; never plaintext on disk.
import type { Language } from '../../src-shared/language.ts';

/** Entries we keep, e.g. `env:local:api-key`, `env:remote:api-key`, `inspector:webhook-secret`. */
export type SecretAccount = `env:${string}:api-key` | 'inspector:webhook-secret' | (string & {});

export interface SecretStoreStatus {
  /** Whether the OS keychain answered the probe at start. */
  available: boolean;
  backend: 'keychain' | 'memory';
  /** Why the keychain is unavailable, in both languages, or null. */
  problem: { zh: string; en: string } | null;
}

export interface SecretStore {
  get(account: SecretAccount): Promise<string | null>;
  set(account: SecretAccount, secret: string, options?: { memoryOnly?: boolean }): Promise<void>;
  delete(account: SecretAccount): Promise<void>;
  /** Whether this entry lives only in memory for this run. */
  isMemoryOnly(account: SecretAccount): boolean;
  status(): SecretStoreStatus;
  /** Every secret value this process has read or stored (deleted ones too), so replies can be checked for them. */
  knownValues(): ReadonlySet<string>;
}

export function problemText(status: SecretStoreStatus, language: Language): string | null {
  return status.problem ? status.problem[language] : null;
}

/** Secrets held in memory for this run only. */
export class MemorySecretStore implements SecretStore {
  private readonly entries = new Map<string, string>();
  private readonly why: SecretStoreStatus;
  private readonly seen = new Set<string>();

  constructor(why: SecretStoreStatus = { available: false, backend: 'memory', problem: null }) {
    this.why = why;
  }
  get(account: SecretAccount): Promise<string | null> {
    return Promise.resolve(this.entries.get(account) ?? null);
  }
  set(account: SecretAccount, secret: string): Promise<void> {
    this.entries.set(account, secret);
    this.seen.add(secret);
    return Promise.resolve();
  }
  delete(account: SecretAccount): Promise<void> {
    this.entries.delete(account);
    return Promise.resolve();
  }
  isMemoryOnly(_account: SecretAccount): boolean {
    return true;
  }
  status(): SecretStoreStatus {
    return this.why;
  }
  knownValues(): ReadonlySet<string> {
    return this.seen;
  }
}

interface KeytarApi {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/**
 * The OS keychain through keytar. An entry the user asked to keep "for this run only" (or any entry while
 * the keychain failed) is held in memory instead, and shadows the keychain entry.
 */
export class KeytarSecretStore implements SecretStore {
  private readonly keytar: KeytarApi;
  private readonly service: string;
  private readonly memory = new Map<string, string>();
  private readonly seen = new Set<string>();

  constructor(keytar: KeytarApi, service: string) {
    this.keytar = keytar;
    this.service = service;
  }
  async get(account: SecretAccount): Promise<string | null> {
    const held = this.memory.get(account);
    if (held !== undefined) return held;
    const stored = await this.keytar.getPassword(this.service, account);
    if (stored !== null) this.seen.add(stored);
    return stored;
  }
  async set(account: SecretAccount, secret: string, options: { memoryOnly?: boolean } = {}): Promise<void> {
    this.seen.add(secret);
    if (options.memoryOnly) {
      this.memory.set(account, secret);
      // A memory-only key replaces a stored one; leaving the old one would bring it back next run.
      await this.keytar.deletePassword(this.service, account);
      return;
    }
    this.memory.delete(account);
    await this.keytar.setPassword(this.service, account, secret);
  }
  async delete(account: SecretAccount): Promise<void> {
    this.memory.delete(account);
    await this.keytar.deletePassword(this.service, account);
  }
  isMemoryOnly(account: SecretAccount): boolean {
    return this.memory.has(account);
  }
  status(): SecretStoreStatus {
    return { available: true, backend: 'keychain', problem: null };
  }
  knownValues(): ReadonlySet<string> {
    return this.seen;
  }
}

/** keytar's errors (TOOLCHAIN.md) as plain words for the user. */
export function explainKeychainError(error: unknown): { zh: string; en: string } {
  const text = error instanceof Error ? error.message : String(error);
  const tail = {
    zh: '本次运行中密钥只保存在内存里，退出后需要重新输入；不会以明文写入磁盘。',
    en: 'Keys are kept in memory for this run only and must be entered again after quitting; nothing is written to disk in plain text.',
  };
  if (/autolaunch D-Bus|DBUS_SESSION_BUS_ADDRESS|Failed to connect to socket|Could not connect|No such file or directory/i.test(text)) {
    return {
      zh: `无法连接系统钥匙串：没有可用的 D-Bus 会话。${tail.zh}`,
      en: `The system keychain cannot be reached: there is no D-Bus session. ${tail.en}`,
    };
  }
  if (/org\.freedesktop\.secrets|not provided by any \.service files|ServiceUnknown/i.test(text)) {
    return {
      zh: `没有运行中的钥匙串服务（如 GNOME Keyring 或 KWallet）。${tail.zh}`,
      en: `No keychain service (such as GNOME Keyring or KWallet) is running. ${tail.en}`,
    };
  }
  if (/Object does not exist at path|collection\/login|locked|dismissed|prompt/i.test(text)) {
    return {
      zh: `系统钥匙串已锁定或拒绝访问，请解锁后重启应用。${tail.zh}`,
      en: `The system keychain is locked or refused access; unlock it and restart the app. ${tail.en}`,
    };
  }
  if (/Cannot find module|keytar|\.node/i.test(text)) {
    return {
      zh: `钥匙串组件无法加载。${tail.zh}`,
      en: `The keychain component could not be loaded. ${tail.en}`,
    };
  }
  return {
    zh: `系统钥匙串不可用（${text}）。${tail.zh}`,
    en: `The system keychain is unavailable (${text}). ${tail.en}`,
  };
}

const PROBE_ACCOUNT = 'probe:startup';

/**
 * Opens the keychain and proves it works (write, read, delete a probe entry). On any failure it returns a
 * memory store whose status carries the plain-language reason, so the app still runs for this session.
 */
export async function openSecretStore(options: { backend?: 'keychain' | 'memory'; service: string }): Promise<SecretStore> {
  if (options.backend === 'memory') return new MemorySecretStore({ available: false, backend: 'memory', problem: null });
  try {
    const loaded = (await import('keytar')) as unknown as KeytarApi & { default?: KeytarApi };
    const keytar: KeytarApi = loaded.default ?? loaded;
    const token = `probe-${Date.now()}`;
    await keytar.setPassword(options.service, PROBE_ACCOUNT, token);
    const read = await keytar.getPassword(options.service, PROBE_ACCOUNT);
    await keytar.deletePassword(options.service, PROBE_ACCOUNT);
    if (read !== token) throw new Error('the keychain did not return what was stored');
    return new KeytarSecretStore(keytar, options.service);
  } catch (error) {
    return new MemorySecretStore({ available: false, backend: 'memory', problem: explainKeychainError(error) });
  }
}
