// The Local environment's console over the service's admin API (DESIGN.md §4). Main holds the
// admin token; new keys go to the clipboard or the keychain, never to the renderer (DESIGN.md §2 rule 3).
import type { AdminPack, Faults, PatchAccountBody, PatchPackBody, ServiceSettings } from '../../src-shared/admin.ts';
import type { CreatedKey, LocalRequestPage, LocalRequestView } from '../../src-shared/ipc/local-console.ts';
import type { LocalConsoleState, LocalPackView, MethodInputOf, PublishOutcome } from './types.ts';
import type { Language } from '../../src-shared/language.ts';
import { StudioError } from '../domain/errors.ts';
import type { DesktopShell } from '../ports/desktop-shell.ts';
import type { Environments, SettingsStore } from '../environments/index.ts';
import type { LibraryRepo } from '../library/index.ts';
import type { SecretStore } from '../secrets/index.ts';
import type { AdminClient } from '../clients/admin-client.ts';

function packView(p: AdminPack): LocalPackView {
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
  /** How long a copied key stays on the clipboard (60 s; tests shorten it). */
  clipboardClearMs?: number;
}

/** A key copied to the clipboard is taken off again after this long, if it is still there. */
export const CLIPBOARD_CLEAR_MS = 60_000;

export class LocalConsole {
  private readonly deps: LocalConsoleDeps;
  /** Keys put on the clipboard and not yet cleared, with their timers. */
  private readonly onClipboard = new Map<string, NodeJS.Timeout>();

  constructor(deps: LocalConsoleDeps) {
    this.deps = deps;
  }

  /** Clears a copied key the user has not replaced yet; on quit too, so it never outlives the app. */
  async close(): Promise<void> {
    const keys = [...this.onClipboard.keys()];
    await Promise.all(keys.map((key) => this.clearIfStill(key)));
  }

  private async clearIfStill(key: string): Promise<void> {
    clearTimeout(this.onClipboard.get(key));
    this.onClipboard.delete(key);
    // Only our key: whatever the user copied since is theirs.
    try {
      if ((await this.deps.shell.readClipboard()) === key) this.deps.shell.clearClipboard();
    } catch {
      // A clipboard that cannot be read now cannot be checked; leave the user's clipboard alone.
    }
  }

  private admin(): { admin: AdminClient; accountId: string } {
    const admin = this.deps.environments.localAdmin();
    const accountId = this.deps.settings.get().local.accountId;
    if (!admin || !accountId) throw new StudioError('console_unavailable');
    return { admin, accountId };
  }

  async status(): Promise<LocalConsoleState> {
    const { admin, accountId } = this.admin();
    // Each answer is parsed by the admin client with its schema (src-shared/admin.ts).
    const [account, clock, keys, settings, faults, webhook, packs] = await Promise.all([
      admin.account(accountId),
      admin.clockState(),
      admin.apiKeys(accountId),
      admin.settings(),
      admin.faults(),
      admin.webhook(accountId),
      admin.packs(accountId),
    ]);
    const appKeyId = this.deps.settings.get().local.keyId;
    const secretStored = (await this.deps.secrets.get('inspector:webhook-secret')) !== null;
    const { now } = clock;
    return {
      baseUrl: admin.baseUrl,
      now,
      clockOffsetS: clock.offsetS,
      account: {
        id: account.id,
        credits: account.credits,
        reserved: account.reserved ?? 0,
        banned: account.banned,
        createdAt: account.created_at,
        ageDays: Math.floor((now - account.created_at) / 86_400),
      },
      // The schema drops anything but the listed fields; `key` is removed explicitly as well.
      keys: keys.map((k) => {
        const { key: _secret, ...rest } = k;
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
      packs: packs.map(packView),
    };
  }

  async topUp(credits: number): Promise<LocalConsoleState> {
    const { admin, accountId } = this.admin();
    await admin.updateAccount(accountId, { add_credits: credits });
    return this.status();
  }

  async updateAccount(input: MethodInputOf<'localUpdateAccount'>): Promise<LocalConsoleState> {
    const { admin, accountId } = this.admin();
    const body: PatchAccountBody = {};
    if (input.banned !== undefined) body.banned = input.banned;
    if (input.ageDays !== undefined) body.age_days = input.ageDays;
    if (input.credits !== undefined) body.credits = input.credits;
    await admin.updateAccount(accountId, body);
    return this.status();
  }

  /**
   * A new key: into the keychain as the app's Local key, or onto the clipboard (cleared after 60 s if still
   * there). Where no clipboard reaches the user (the harness) the reply carries it once, for its dialog.
   */
  async createKey(input: MethodInputOf<'localCreateKey'>): Promise<CreatedKey> {
    const { admin, accountId } = this.admin();
    const created = await admin.createApiKey(accountId, {
      name: input.name,
      scopes: input.scopes,
      ...(input.expiresAt !== undefined ? { expires_at: input.expiresAt } : {}),
    });
    if (input.useForApp) {
      await this.deps.secrets.set('env:local:api-key', created.key);
      this.deps.environments.rememberLocalKeyId(created.id);
      return { keyId: created.id, copiedToClipboard: false, usedByApp: true, clipboardClearsInS: null, oneTimeKey: null };
    }
    const { shell } = this.deps;
    if (!shell.clipboardReachesUser) return { keyId: created.id, copiedToClipboard: false, usedByApp: false, clipboardClearsInS: null, oneTimeKey: created.key };
    await shell.writeClipboard(created.key);
    const clearMs = this.deps.clipboardClearMs ?? CLIPBOARD_CLEAR_MS;
    const timer = setTimeout(() => void this.clearIfStill(created.key), clearMs);
    timer.unref();
    this.onClipboard.set(created.key, timer);
    return { keyId: created.id, copiedToClipboard: true, usedByApp: false, clipboardClearsInS: Math.ceil(clearMs / 1000), oneTimeKey: null };
  }

  async revokeKey(keyId: string): Promise<LocalConsoleState> {
    const { admin } = this.admin();
    await admin.revokeApiKey(keyId);
    return this.status();
  }

  async setKeyRateLimit(keyId: string, ratePer24h: number): Promise<LocalConsoleState> {
    const { admin } = this.admin();
    await admin.setApiKeyRateLimit(keyId, ratePer24h);
    return this.status();
  }

  async setFaults(faults: Faults): Promise<LocalConsoleState> {
    const { admin } = this.admin();
    await admin.setFaults(faults);
    return this.status();
  }

  async advanceClock(seconds: number): Promise<LocalConsoleState> {
    const { admin } = this.admin();
    await admin.advanceClock(seconds);
    return this.status();
  }

  async resetClock(): Promise<LocalConsoleState> {
    const { admin } = this.admin();
    await admin.resetClock();
    return this.status();
  }

  async setSettings(settings: ServiceSettings): Promise<LocalConsoleState> {
    const { admin } = this.admin();
    await admin.setSettings(settings);
    return this.status();
  }

  async webhookSet(url: string, enabled: boolean): Promise<LocalConsoleState> {
    const { admin, accountId } = this.admin();
    const result = await admin.setWebhook(accountId, { url, enabled });
    // The signing secret goes to the keychain for the inspector, never to the renderer.
    if (result.secret !== (await this.deps.secrets.get('inspector:webhook-secret'))) await this.deps.adoptWebhookSecret(result.secret);
    return this.status();
  }

  async webhookRegenerate(): Promise<LocalConsoleState> {
    this.admin();
    await this.deps.regenerateWebhookSecret();
    return this.status();
  }

  async webhookPing(): Promise<{ deliveryId: string }> {
    const { admin, accountId } = this.admin();
    const result = await admin.pingWebhook(accountId);
    return { deliveryId: result.delivery_id };
  }

  /** A page of the service's request ledger (all accounts), newest first. */
  async requests(input: MethodInputOf<'localRequests'>): Promise<LocalRequestPage> {
    const { admin } = this.admin();
    const page = await admin.requestLog({
      request_id: input.requestId,
      status: input.status,
      code: input.code,
      route: input.route,
      cursor: input.cursor,
      limit: input.limit,
    });
    return { requests: page.requests, nextCursor: page.next_cursor };
  }

  async request(requestId: string): Promise<LocalRequestView> {
    const { admin } = this.admin();
    return admin.requestEntry(requestId);
  }

  /** Library image ids are the service's ids; only images of the Local environment can go into a pack. */
  private serviceImageIds(imageIds: string[]): string[] {
    return imageIds.map((id) => {
      const image = this.deps.repo.getImage(id);
      if (!image) throw new StudioError('image_not_found', { imageId: id });
      if (image.environment !== 'local') throw new StudioError('environment_mismatch', { imageId: id });
      return image.id;
    });
  }

  async packCreate(styleCode: string, imageIds: string[]): Promise<LocalPackView> {
    const { admin, accountId } = this.admin();
    const ids = this.serviceImageIds(imageIds);
    return packView(await admin.createPack(accountId, { style_code: styleCode, image_ids: ids }));
  }

  async packUpdate(input: MethodInputOf<'localPackUpdate'>): Promise<LocalPackView> {
    const { admin } = this.admin();
    const body: PatchPackBody = {};
    if (input.styleCode !== undefined) body.style_code = input.styleCode;
    if (input.imageIds !== undefined) body.image_ids = this.serviceImageIds(input.imageIds);
    if (input.saved !== undefined) body.saved = input.saved;
    return packView(await admin.updatePack(input.packId, body));
  }

  async packPublish(packId: string, idempotencyKey: string | undefined): Promise<PublishOutcome> {
    const { admin } = this.admin();
    try {
      const result = await admin.publishPack(packId, idempotencyKey);
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
    await admin.deleteImage(id as string);
    this.deps.repo.setMissing(imageId);
    return { deleted: true };
  }
}
