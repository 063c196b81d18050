// Image packs and publishing (spec §6, DESIGN.md §3/§4). Rules: a publish is rejected, with no version and no
// notification, for unsaved changes, a deleted image or an empty pack; every accepted publish creates the next
// version (even of an unchanged pack); an Idempotency-Key seen for the pack in the last 24 hours of the service
// clock returns the earlier result and sends nothing.
import type { AdminPack, CreatePackBody, PatchPackBody } from '../../src-shared/admin.ts';
import type { ApiImage, Publication, PublicationRecord } from '../../src-shared/api.ts';
import { newId } from '../../src-shared/ids.ts';
import { transaction } from '../db.ts';
import type { ServiceDeps } from '../deps.ts';
import { fail } from '../http/errors.ts';
import { createAccountsRepo } from '../repos/accounts.ts';
import { createImagesRepo } from '../repos/images.ts';
import { createPacksRepo, type PackRow, type PublicationRow } from '../repos/packs.ts';
import type { WebhookService } from './webhooks.ts';

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export type PublishRejection = 'unsaved_changes' | 'missing_images' | 'empty_pack';

export interface PublishResult {
  published: true;
  publication: Publication;
  /** true when an earlier result was returned for a repeated Idempotency-Key. */
  replayed: boolean;
  /** The notification's delivery id when one was queued (never on a replay). */
  delivery_id: string | null;
}

/** The pack as the admin API answers it (times in Unix seconds of the service clock). */
function packView(row: PackRow): AdminPack {
  return {
    pack_id: row.id,
    account_id: row.accountId,
    style_code: row.styleCode,
    image_ids: row.imageIds,
    saved: row.saved,
    versions: row.versions,
    created_at: Math.floor(row.createdAt / 1000),
    updated_at: Math.floor(row.updatedAt / 1000),
  };
}

function publicationView(row: PublicationRow): Publication {
  // DESIGN.md §3: published_at is Unix seconds.
  return { id: row.id, pack_id: row.packId, version: row.version, style_code: row.styleCode, published_at: Math.floor(row.publishedAt / 1000) };
}

export function createPackService(deps: Pick<ServiceDeps, 'db' | 'clock'>, webhooks: Pick<WebhookService, 'notifyPublished'>) {
  const packs = createPacksRepo(deps.db);
  const images = createImagesRepo(deps.db);
  const accounts = createAccountsRepo(deps.db);

  const mustFindPack = (packId: string): PackRow => packs.getPack(packId) ?? fail('not_found', { what: `image pack ${packId}`, what_zh: `图包 ${packId}` });

  /** Image ids of a pack must name images of the pack's account, each once (a deleted one is accepted). */
  function checkImageIds(accountId: string, ids: string[]): void {
    const seen = new Set<string>();
    for (const id of ids) {
      if (seen.has(id)) fail('invalid_request', { detail: `image_ids: ${id} appears more than once`, detail_zh: `image_ids：${id} 重复出现` });
      seen.add(id);
      const image = images.findById(id);
      if (!image || image.account_id !== accountId) {
        fail('invalid_request', { detail: `image_ids: ${id} is not an image of account ${accountId}`, detail_zh: `image_ids：${id} 不是账户 ${accountId} 的图片` });
      }
    }
  }

  return {
    list(accountId: string): AdminPack[] {
      if (!accounts.findById(accountId)) fail('not_found', { what: `account ${accountId}`, what_zh: `账户 ${accountId}` });
      return packs.listPacks(accountId).map(packView);
    },

    get(packId: string): AdminPack {
      return packView(mustFindPack(packId));
    },

    create(accountId: string, input: CreatePackBody): AdminPack {
      return transaction(deps.db, () => {
        if (!accounts.findById(accountId)) fail('not_found', { what: `account ${accountId}`, what_zh: `账户 ${accountId}` });
        checkImageIds(accountId, input.image_ids);
        const id = newId('pack');
        packs.insertPack({ id, accountId, styleCode: input.style_code, imageIds: input.image_ids, now: deps.clock.now() });
        return packView(mustFindPack(id));
      });
    },

    /** An edit without `saved: false` is a saved edit; `saved: false` marks unsaved draft changes. */
    update(packId: string, input: PatchPackBody): AdminPack {
      return transaction(deps.db, () => {
        const pack = mustFindPack(packId);
        if (input.image_ids) checkImageIds(pack.accountId, input.image_ids);
        packs.updatePack(packId, {
          styleCode: input.style_code ?? pack.styleCode,
          imageIds: input.image_ids ?? pack.imageIds,
          saved: input.saved ?? true,
          now: deps.clock.now(),
        });
        return packView(mustFindPack(packId));
      });
    },

    publish(packId: string, idempotencyKey: string | null): PublishResult {
      return transaction(deps.db, () => {
        const pack = mustFindPack(packId);
        const now = deps.clock.now();
        if (idempotencyKey !== null) {
          const seen = packs.getIdempotencyKey(packId, idempotencyKey);
          if (seen && now - seen.createdAt < IDEMPOTENCY_WINDOW_MS) {
            const earlier = packs.getPublication(seen.publicationId);
            if (earlier) return { published: true, publication: publicationView(earlier), replayed: true, delivery_id: null };
          }
        }
        // A rejection changes nothing and does not consume the Idempotency-Key: like a request that fails
        // validation, its retry after a fix is a fresh publish.
        let reason: PublishRejection | null = null;
        if (!pack.saved) reason = 'unsaved_changes';
        else if (pack.imageIds.some((id) => { const image = images.findById(id); return !image || image.deleted_at !== null; })) reason = 'missing_images';
        else if (pack.imageIds.length === 0) reason = 'empty_pack';
        if (reason !== null) fail('publish_rejected', { reason });

        const row: Omit<PublicationRow, 'id'> = {
          packId,
          accountId: pack.accountId,
          version: packs.lastVersion(packId) + 1,
          styleCode: pack.styleCode,
          imageIds: pack.imageIds,
          publishedAt: now,
        };
        const id = packs.insertPublication(row);
        if (idempotencyKey !== null) packs.putIdempotencyKey(packId, idempotencyKey, id, now);
        const publication = publicationView({ ...row, id });
        const deliveryId = webhooks.notifyPublished(pack.accountId, publication);
        return { published: true, publication, replayed: false, delivery_id: deliveryId };
      });
    },

    /**
     * GET /api/v1/image-pack-publications/<id> (spec §4.3, DESIGN.md §3): the notification's fields plus the
     * images. Another account's record answers exactly like a missing one.
     */
    publicationRecord(accountId: string, id: number): PublicationRecord {
      const row = packs.getPublication(id);
      if (!row || row.accountId !== accountId) fail('not_found', { what: `image pack publication ${id}`, what_zh: `图包发布记录 ${id}` });
      const list: ApiImage[] = [];
      for (const imageId of row.imageIds) {
        const image = images.findById(imageId);
        // An image cleaned up after publishing has no file any more; its link would only answer 404.
        if (!image || image.deleted_at !== null) continue;
        list.push({ id: image.id, filename: image.filename, url: `/api/file/${image.filename}`, width: image.width, height: image.height });
      }
      return { ...publicationView(row), images: list };
    },
  };
}

export type PackService = ReturnType<typeof createPackService>;
