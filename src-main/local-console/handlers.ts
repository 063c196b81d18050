// IPC handlers of the Local console (src-shared/ipc/local-console.ts): the local service's account, keys,
// faults, clock, settings, webhook, packs and request ledger, through the console (local-console.ts).
import type { Emit } from '../ports/events.ts';
import type { HandlerTable } from '../ports/ipc-table.ts';
import type { LocalConsole } from './local-console.ts';

export type LocalConsoleMethods =
  | 'localStatus' | 'localTopUp' | 'localUpdateAccount' | 'localCreateKey' | 'localRevokeKey' | 'localSetKeyRateLimit'
  | 'localSetFaults' | 'localAdvanceClock' | 'localResetClock' | 'localSetSettings' | 'localWebhookSet' | 'localWebhookRegenerate'
  | 'localWebhookPing' | 'localPackCreate' | 'localPackUpdate' | 'localPackPublish' | 'localDeleteImage'
  | 'localRequests' | 'localRequest';

export function createLocalConsoleHandlers(console: LocalConsole, emit: Emit): HandlerTable<LocalConsoleMethods> {
  return {
    localStatus: () => console.status(),
    localTopUp: ({ credits }) => console.topUp(credits),
    localUpdateAccount: (input) => console.updateAccount(input),
    localCreateKey: async (input) => {
      const result = await console.createKey(input);
      // A key the app now uses changes what the settings show.
      if (result.usedByApp) emit('settings:changed', {});
      return result;
    },
    localRevokeKey: ({ keyId }) => console.revokeKey(keyId),
    localSetKeyRateLimit: ({ keyId, ratePer24h }) => console.setKeyRateLimit(keyId, ratePer24h),
    localSetFaults: (faults) => console.setFaults(faults),
    localAdvanceClock: ({ seconds }) => console.advanceClock(seconds),
    localResetClock: () => console.resetClock(),
    localSetSettings: (settings) => console.setSettings(settings),
    localWebhookSet: ({ url, enabled }) => console.webhookSet(url, enabled),
    localWebhookRegenerate: () => console.webhookRegenerate(),
    localWebhookPing: () => console.webhookPing(),
    localPackCreate: ({ styleCode, imageIds }) => console.packCreate(styleCode, imageIds),
    localPackUpdate: (input) => console.packUpdate(input),
    localPackPublish: ({ packId, idempotencyKey }) => console.packPublish(packId, idempotencyKey),
    localDeleteImage: ({ imageId }) => console.deleteImage(imageId),
    localRequests: (input) => console.requests(input),
    localRequest: ({ requestId }) => console.request(requestId),
  };
}
