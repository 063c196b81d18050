// The Local environment's console (issue 5 §6) over the service's admin API (DESIGN.md §4). Main holds the
// admin token; new keys go to the clipboard or the keychain, never to the renderer (DESIGN.md §2 rule 3).
import { AdminAccountSchema, AdminApiKeySchema, AdminWebhookSchema, type Faults } from '../../src-shared/api.ts';
import type { LocalConsoleState, LocalPackView, MethodInputOf, PublishOutcome } from './types.ts';
import type { ServiceSettings } from '../../src-shared/api.ts';
import type { Language } from '../../src-shared/language.ts';
import { StudioError, studioError } from '../core/errors.ts';
import type { DesktopShell } from '../desktop-shell.ts';
import type { Environments } from '../environments/environments.ts';
import type { LibraryRepo } from '../library/library-repo.ts';
import type { SecretStore } from '../secrets/secret-store.ts';
import type { SettingsStore } from '../environments/settings-store.ts';
import type { AdminClient } from './admin-client.ts';

interface PackWire {
  pack_id: string;
  style_code: string;
  image_ids: string[];
  saved: boolean;
  versions: number;
}

function packView(p: PackWire): LocalPackView {
  return { packId: p.pack_id, styleCode: p.style_code, imageIds: p.image_ids, saved: p.saved, versions: p.versions };
}

export interface LocalConsoleDeps {
  environments: Environments;
  settings: SettingsStore;
  secrets: SecretStore;
  shell: DesktopShell;
  repo: LibraryRepo;
  language: () => Language;
  /**
   * The inspector keeps the webhook signing secret (with its history of replaced ones); regenerating goes
   * through it so its copy never goes stale.
   */
  regenerateWebhookSecret: () => Promise<unknown>;
  /** Hands a secret the service returned to whoever keeps it (the inspector). */
  adoptWebhookSecret: (secret: string) => Promise<void>;
}

export class LocalConsole {
  private readonly deps: LocalConsoleDeps;

  constructor(deps: LocalConsoleDeps) {
    this.deps = deps;
  }

  private admin(): { admin: AdminClient; accountId: string } {
    const admin = this.deps.environments.localAdmin();
    const accountId = this.deps.settings.get().local.accountId;
    if (!admin || !accountId) {
      throw studioError('service_not_running', { zh: '本地服务尚未运行，控制台不可用。', en: 'The local service is not running, so its console is unavailable.' }, this.deps.language());
    }
    return { admin, accountId };
  }

  private account(accountId: string): string {
    return `/admin/accounts/${encodeURIComponent(accountId)}`;
  }

  async status(): Promise<LocalConsoleState> {
    const { admin, accountId } = this.admin();
    const base = this.account(accountId);
    const [accountWire, clock, keys, settings, faults, webhookWire, packs] = await Promise.all([
      admin.request('GET', base),
      admin.request<{ now: number }>('GET', '/admin/clock'),
      admin.request<{ api_keys: unknown[] }>('GET', `${base}/api-keys`),
      admin.request<Required<ServiceSettings>>('GET', '/admin/settings'),
      admin.request<Faults>('GET', '/admin/faults'),
      admin.request('GET', `${base}/webhook`),
      admin.request<{ packs: PackWire[] }>('GET', `${base}/image-packs`),
    ]);
    // The admin API's shapes are the contract's schemas (src-shared/api.ts), not restated here.
    const account = AdminAccountSchema.parse(accountWire);
    const webhook = AdminWebhookSchema.parse(webhookWire);
    const appKeyId = this.deps.settings.get().local.keyId;
    const secretStored = (await this.deps.secrets.get('inspector:webhook-secret')) !== null;
    return {
      baseUrl: admin.baseUrl,
      now: clock.now,
      account: {
        id: account.id,
        credits: account.credits,
        reserved: account.reserved ?? 0,
        banned: account.banned,
        createdAt: account.created_at,
        ageDays: Math.floor((clock.now - account.created_at) / 86_400),
      },
      // The schema drops anything but the listed fields; `key` is removed explicitly as well.
      keys: keys.api_keys.map((k) => {
        const { key: _secret, ...rest } = AdminApiKeySchema.parse(k);
        return { ...rest, usedByApp: rest.id === appKeyId };
      }),
      settings,
      faults,
      webhook: {
        url: webhook.url,
        enabled: webhook.enabled,
        secretStored,
        lastDelivery: webhook.last_delivery
          ? {
              deliveryId: webhook.last_delivery.delivery_id,
              event: webhook.last_delivery.event,
              attempts: webhook.last_delivery.attempts,
              outcome: webhook.last_delivery.outcome,
              status: webhook.last_delivery.status ?? null,
              at: webhook.last_delivery.at,
            }
          : null,
      },
      packs: packs.packs.map(packView),
    };
  }

  async topUp(credits: number): Promise<LocalConsoleState> {
    const { admin, accountId } = this.admin();
    await admin.request('PATCH', this.account(accountId), { add_credits: credits });
    return this.status();
  }

  async updateAccount(input: MethodInputOf<'localUpdateAccount'>): Promise<LocalConsoleState> {
    const { admin, accountId } = this.admin();
    const body: Record<string, unknown> = {};
    if (input.banned !== undefined) body.banned = input.banned;
    if (input.ageDays !== undefined) body.age_days = input.ageDays;
    if (input.credits !== undefined) body.credits = input.credits;
    await admin.request('PATCH', this.account(accountId), body);
    return this.status();
  }

  /** A new key: to the clipboard, or into the keychain as the app's Local key; never to the renderer. */
  async createKey(input: MethodInputOf<'localCreateKey'>): Promise<{ keyId: string; copiedToClipboard: boolean; usedByApp: boolean }> {
    const { admin, accountId } = this.admin();
    const created = await admin.request<{ id: string; key: string }>('POST', `${this.account(accountId)}/api-keys`, {
      name: input.name,
      scopes: input.scopes,
      ...(input.expiresAt !== undefined ? { expires_at: input.expiresAt } : {}),
    });
    if (input.useForApp) {
      await this.deps.secrets.set('env:local:api-key', created.key);
      this.deps.environments.rememberLocalKeyId(created.id);
      return { keyId: created.id, copiedToClipboard: false, usedByApp: true };
    }
    this.deps.shell.writeClipboard(created.key);
    return { keyId: created.id, copiedToClipboard: true, usedByApp: false };
  }

  async revokeKey(keyId: string): Promise<LocalConsoleState> {
    const { admin } = this.admin();
    await admin.request('POST', `/admin/api-keys/${encodeURIComponent(keyId)}/revoke`);
    return this.status();
  }

  async setKeyRateLimit(keyId: string, ratePer24h: number): Promise<LocalConsoleState> {
    const { admin } = this.admin();
    await admin.request('PATCH', `/admin/api-keys/${encodeURIComponent(keyId)}`, { rate_limit_per_24h: ratePer24h });
    return this.status();
  }

  async setFaults(faults: Faults): Promise<LocalConsoleState> {
    const { admin } = this.admin();
    await admin.request('PUT', '/admin/faults', faults);
    return this.status();
  }

  async advanceClock(seconds: number): Promise<LocalConsoleState> {
    const { admin } = this.admin();
    await admin.request('POST', '/admin/clock', { advance_s: seconds });
    return this.status();
  }

  async setSettings(settings: ServiceSettings): Promise<LocalConsoleState> {
    const { admin } = this.admin();
    await admin.request('PUT', '/admin/settings', settings);
    return this.status();
  }

  async webhookSet(url: string, enabled: boolean): Promise<LocalConsoleState> {
    const { admin, accountId } = this.admin();
    const result = await admin.request<{ secret?: string }>('PUT', `${this.account(accountId)}/webhook`, { url, enabled });
    // The signing secret goes to the keychain for the inspector, never to the renderer.
    if (result.secret && result.secret !== (await this.deps.secrets.get('inspector:webhook-secret'))) await this.deps.adoptWebhookSecret(result.secret);
    return this.status();
  }

  async webhookRegenerate(): Promise<LocalConsoleState> {
    this.admin();
    await this.deps.regenerateWebhookSecret();
    return this.status();
  }

  async webhookPing(): Promise<{ deliveryId: string }> {
    const { admin, accountId } = this.admin();
    const result = await admin.request<{ delivery_id: string }>('POST', `${this.account(accountId)}/webhook/ping`);
    return { deliveryId: result.delivery_id };
  }

  /** Library image ids are the service's ids; only images of the Local environment can go into a pack. */
  private serviceImageIds(imageIds: string[]): string[] {
    const language = this.deps.language();
    return imageIds.map((id) => {
      const image = this.deps.repo.getImage(id);
      if (!image) throw studioError('image_not_found', { zh: `图库中没有图片 ${id}。`, en: `No image ${id} in the library.` }, language, { imageId: id });
      if (image.environment !== 'local') {
        throw studioError('environment_mismatch', { zh: `图片 ${id} 不属于本地环境。`, en: `Image ${id} is not from the Local environment.` }, language, { imageId: id });
      }
      return image.id;
    });
  }

  async packCreate(styleCode: string, imageIds: string[]): Promise<LocalPackView> {
    const { admin, accountId } = this.admin();
    const ids = this.serviceImageIds(imageIds);
    const created = await admin.request<PackWire>('POST', `${this.account(accountId)}/image-packs`, { style_code: styleCode, image_ids: ids });
    return packView(created);
  }

  async packUpdate(input: MethodInputOf<'localPackUpdate'>): Promise<LocalPackView> {
    const { admin } = this.admin();
    const body: Record<string, unknown> = {};
    if (input.styleCode !== undefined) body.style_code = input.styleCode;
    if (input.imageIds !== undefined) body.image_ids = this.serviceImageIds(input.imageIds);
    if (input.saved !== undefined) body.saved = input.saved;
    return packView(await admin.request<PackWire>('PATCH', `/admin/image-packs/${encodeURIComponent(input.packId)}`, body));
  }

  async packPublish(packId: string, idempotencyKey: string | undefined): Promise<PublishOutcome> {
    const { admin } = this.admin();
    try {
      const result = await admin.request<{ published: true; publication: Extract<PublishOutcome, { published: true }>['publication'] }>(
        'POST',
        `/admin/image-packs/${encodeURIComponent(packId)}/publish`,
        undefined,
        idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
      );
      return { published: true, publication: result.publication };
    } catch (error) {
      const reason = error instanceof StudioError ? error.details?.reason : undefined;
      if (error instanceof StudioError && error.code === 'publish_rejected' && (reason === 'unsaved_changes' || reason === 'missing_images' || reason === 'empty_pack')) {
        return { published: false, reason };
      }
      throw error;
    }
  }

  async deleteImage(imageId: string): Promise<{ deleted: boolean }> {
    const { admin } = this.admin();
    const [id] = this.serviceImageIds([imageId]);
    await admin.request('DELETE', `/admin/images/${encodeURIComponent(id as string)}`);
    this.deps.repo.setMissing(imageId);
    return { deleted: true };
  }
}
