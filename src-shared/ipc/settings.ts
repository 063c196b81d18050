// IPC: settings, environments and API keys. The renderer may send a key (the user types it) but never
// receives one: only whether it is set and a masked form (DESIGN.md §2 rule 3).
import { z } from 'zod';
import { LANGUAGES, type Language } from '../language.ts';
import { THEMES, type Theme } from '../limits.ts';
import { method, type IpcError } from './contract.ts';

export const ENVIRONMENTS = ['local', 'remote'] as const;
export type EnvironmentName = (typeof ENVIRONMENTS)[number];
export const EnvironmentSchema = z.enum(ENVIRONMENTS);

export interface KeychainStatus {
  /** Whether the OS keychain answered. */
  available: boolean;
  /** Where keys are held now: the keychain, or memory for this run only (never plaintext on disk). */
  backend: 'keychain' | 'memory';
  /** Plain-language reason the keychain is unavailable, in the UI language, or null. */
  problem: string | null;
}

export type ServiceStatus = 'starting' | 'running' | 'restarting' | 'stopped' | 'failed';

export { THEMES, type Theme };

export interface EnvironmentInfo {
  name: EnvironmentName;
  baseUrl: string | null;
  keySet: boolean;
  /** The last four characters behind dots, e.g. `••••Ab3d` (no prefix, so no reply ever holds key text); null when no key is set. */
  keyMasked: string | null;
  keyInMemoryOnly: boolean;
  /** The origin the key was entered for; it is never sent anywhere else. Null without a key. */
  keyOrigin?: string | null;
  /** True for a Remote base URL on plain http:// (allowed only for this computer): the UI warns. */
  insecure?: boolean;
}

export interface SettingsState {
  language: Language;
  theme: Theme;
  environment: EnvironmentName;
  environments: { local: EnvironmentInfo & { serviceStatus: ServiceStatus; serviceError: string | null }; remote: EnvironmentInfo };
  keychain: KeychainStatus;
}

export interface ConnectionTest {
  ok: boolean;
  latencyMs: number;
  /** What the check proved, e.g. that the key authenticates and may generate. */
  error: IpcError | null;
}

const HttpUrl = z
  .string()
  .trim()
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'https:' || u.protocol === 'http:') && u.username === '' && u.password === '';
    } catch {
      return false;
    }
  }, 'must be an http(s) URL without credentials');

// A key travels as an Authorization header value: printable ASCII only (anything else failed in fetch and read
// as "service unreachable"), bounded like any typed header value.
const ApiKeySchema = z
  .string()
  .trim()
  .max(512)
  .regex(/^sk_\S+$/, 'not an API key (keys begin with the letters sk and an underscore)')
  .regex(/^[\x21-\x7E]+$/, 'not an API key (a key holds only letters, digits and punctuation)');

export const settingsMethods = {
  settingsGet: method<SettingsState>()('settings:get', z.object({})),
  settingsSetLanguage: method<SettingsState>()('settings:set-language', z.object({ language: z.enum(LANGUAGES) })),
  settingsSetTheme: method<SettingsState>()('settings:set-theme', z.object({ theme: z.enum(THEMES) })),
  environmentSelect: method<SettingsState>()('environment:select', z.object({ environment: EnvironmentSchema })),
  environmentSetRemote: method<SettingsState>()('environment:set-remote', z.object({ baseUrl: HttpUrl })),
  keySet: method<SettingsState>()(
    'key:set',
    z.object({ environment: EnvironmentSchema, key: ApiKeySchema, memoryOnly: z.boolean().optional() }),
  ),
  keyClear: method<SettingsState>()('key:clear', z.object({ environment: EnvironmentSchema })),
  keyTest: method<ConnectionTest>()('key:test', z.object({ environment: EnvironmentSchema })),
};

/**
 * The settings file main keeps in the data folder (`settings.json`). It never holds a secret: keys live in
 * the keychain. `local` remembers which local-service account and key the app seeded (ids only).
 */
export const StoredSettingsSchema = z.object({
  version: z.literal(1).default(1),
  language: z.enum(LANGUAGES).default('zh'),
  theme: z.enum(THEMES).default('system'),
  environment: EnvironmentSchema.default('local'),
  remoteBaseUrl: z.string().nullable().default(null),
  /** The origin the Remote key was entered for (the key itself is in the keychain). */
  remoteKeyOrigin: z.string().nullable().default(null),
  local: z
    .object({ accountId: z.string().nullable().default(null), keyId: z.string().nullable().default(null) })
    .default({ accountId: null, keyId: null }),
});
export type StoredSettings = z.infer<typeof StoredSettingsSchema>;
