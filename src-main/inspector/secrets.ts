// The inspector's signing secrets in the secret store (keychain): the current one, and the ones Regenerate
// replaced, so a delivery signed with an old secret can be named as such (spec §6 rule 6).
import type { KnownSecret } from './explain.ts';
import type { InspectorSecrets } from './context.ts';

export const SECRET_ACCOUNT = 'inspector:webhook-secret';
export const PREVIOUS_SECRETS_ACCOUNT = 'inspector:webhook-secret-previous';
const KEEP_PREVIOUS = 5;

export class InspectorSecretKeeper {
  private readonly store: InspectorSecrets;
  private cache: { current: string | null; previous: KnownSecret[] } | null = null;
  private loading: Promise<{ current: string | null; previous: KnownSecret[] }> | null = null;

  constructor(store: InspectorSecrets) {
    this.store = store;
  }

  /**
   * The current secret is read from the store each time: another part of main (the local console) may store a
   * new one. When it changed behind our back, the one we knew joins the history, as Regenerate would do.
   */
  load(): Promise<{ current: string | null; previous: KnownSecret[] }> {
    // Deliveries that arrive together share one read of the store (a keychain round trip each otherwise).
    this.loading ??= this.read().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  private async read(): Promise<{ current: string | null; previous: KnownSecret[] }> {
    const current = await this.store.get(SECRET_ACCOUNT);
    if (this.cache === null) {
      this.cache = { current, previous: await this.readHistory() };
    } else if (current !== this.cache.current) {
      const known = this.cache.current;
      const previous = known ? [{ secret: known, replacedAt: Date.now() }, ...this.cache.previous].filter((p) => p.secret !== current).slice(0, KEEP_PREVIOUS) : this.cache.previous;
      if (known) await this.store.set(PREVIOUS_SECRETS_ACCOUNT, JSON.stringify(previous));
      this.cache = { current, previous };
    }
    return this.cache;
  }

  private async readHistory(): Promise<KnownSecret[]> {
    const raw = await this.store.get(PREVIOUS_SECRETS_ACCOUNT);
    if (!raw) return [];
    try {
      const parsed = JSON.parse(raw) as unknown;
      if (!Array.isArray(parsed)) return [];
      return parsed.filter(
        (p): p is KnownSecret => typeof p === 'object' && p !== null && typeof p.secret === 'string' && typeof p.replacedAt === 'number',
      );
    } catch {
      // A damaged entry only loses the history, never the current secret.
      return [];
    }
  }

  /** Stores a new current secret; the one it replaces joins the history (newest first). */
  async replace(secret: string, now = Date.now()): Promise<void> {
    const { current, previous } = await this.load();
    if (current === secret) return;
    const next = current ? [{ secret: current, replacedAt: now }, ...previous.filter((p) => p.secret !== current)] : previous;
    const kept = next.filter((p) => p.secret !== secret).slice(0, KEEP_PREVIOUS);
    await this.store.set(SECRET_ACCOUNT, secret);
    await this.store.set(PREVIOUS_SECRETS_ACCOUNT, JSON.stringify(kept));
    this.cache = { current: secret, previous: kept };
  }

  /** `whsec_…Ab3d`: enough to recognise, never enough to use. */
  static mask(secret: string): string {
    return `${secret.slice(0, 6)}…${secret.slice(-4)}`;
  }
}
