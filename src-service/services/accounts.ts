// Accounts and API keys for the admin API (DESIGN.md §4). Credits move only with a ledger row.
import { randomAlphanumeric, newId } from '../../src-shared/ids.ts';
import type { AdminAccount, AdminApiKey, AdminCreatedApiKey, AdminRevokedKey, CreateAccountBody, CreateApiKeyBody, PatchAccountBody } from '../../src-shared/admin.ts';
import type { Clock } from '../clock.ts';
import { transaction, type Database } from '../db.ts';
import { fail } from '../http/errors.ts';
import { hashApiKey } from '../http/auth.ts';
import { createAccountsRepo, type AccountRow } from '../repos/accounts.ts';
import { createApiKeysRepo, type ApiKeyRow } from '../repos/api-keys.ts';

const DAY_MS = 86_400_000;

export function createAccountService(db: Database, clock: Clock, defaultRateLimit: () => number) {
  const accounts = createAccountsRepo(db);
  const keys = createApiKeysRepo(db);

  // Times in the answers are Unix seconds on the service clock.
  const view = (row: AccountRow, withReserved = false): AdminAccount => ({
    id: row.id,
    credits: row.credits,
    banned: row.banned === 1,
    created_at: Math.floor(row.created_at / 1000),
    ...(withReserved ? { reserved: accounts.reservedTotal(row.id) } : {}),
  });
  const keyView = (row: ApiKeyRow): AdminApiKey => ({
    id: row.id,
    account_id: row.account_id,
    name: row.name,
    scopes: JSON.parse(row.scopes) as string[],
    expires_at: row.expires_at === null ? null : Math.floor(row.expires_at / 1000),
    revoked: row.revoked_at !== null,
    rate_limit_per_24h: row.rate_limit_per_24h ?? defaultRateLimit(),
    created_at: Math.floor(row.created_at / 1000),
  });
  const mustFind = (id: string): AccountRow => accounts.findById(id) ?? fail('not_found', { what: `account ${id}`, what_zh: `账户 ${id}` });

  return {
    create(input: CreateAccountBody): AdminAccount {
      const now = clock.now();
      const id = `acc_${randomAlphanumeric(10)}`;
      const credits = input.credits ?? 0;
      transaction(db, () => {
        accounts.insert({ id, credits: 0, banned: input.banned ? 1 : 0, created_at: now - (input.age_days ?? 0) * DAY_MS });
        if (credits > 0) accounts.moveCredits(id, credits, 'grant', credits, null, now);
      });
      return view(mustFind(id));
    },
    get(id: string): AdminAccount {
      return view(mustFind(id), true);
    },
    patch(id: string, input: PatchAccountBody): AdminAccount {
      transaction(db, () => {
        const row = mustFind(id);
        const now = clock.now();
        let balance = row.credits;
        if (input.credits !== undefined) {
          accounts.moveCredits(id, input.credits, 'admin_adjust', input.credits - balance, null, now);
          balance = input.credits;
        }
        if (input.add_credits !== undefined && input.add_credits !== 0) {
          const next = balance + input.add_credits;
          if (next < 0) fail('invalid_request', { detail: `add_credits would make the balance negative (${next})`, detail_zh: `add_credits 会使余额变为负数（${next}）` });
          accounts.moveCredits(id, next, input.add_credits > 0 ? 'grant' : 'admin_adjust', input.add_credits, null, now);
        }
        if (input.banned !== undefined) accounts.setBanned(id, input.banned);
        if (input.age_days !== undefined) accounts.setCreatedAt(id, now - input.age_days * DAY_MS);
      });
      return view(mustFind(id), true);
    },
    createKey(accountId: string, input: CreateApiKeyBody): AdminCreatedApiKey {
      mustFind(accountId);
      const secret = newId('apiKey');
      const row: ApiKeyRow = {
        id: `key_${randomAlphanumeric(10)}`,
        account_id: accountId,
        name: input.name,
        key_hash: hashApiKey(secret),
        scopes: JSON.stringify([...new Set(input.scopes)]),
        expires_at: input.expires_at == null ? null : input.expires_at * 1000,
        revoked_at: null,
        rate_limit_per_24h: null,
        created_at: clock.now(),
      };
      keys.insert(row);
      return { ...keyView(row), key: secret };
    },
    listKeys(accountId: string): AdminApiKey[] {
      mustFind(accountId);
      return keys.listByAccount(accountId).map(keyView);
    },
    revokeKey(keyId: string): AdminRevokedKey {
      if (!keys.findById(keyId)) fail('not_found', { what: `API key ${keyId}`, what_zh: `API 密钥 ${keyId}` });
      keys.revoke(keyId, clock.now());
      return { id: keyId, revoked: true };
    },
    setKeyRateLimit(keyId: string, limit: number | null): AdminApiKey {
      if (!keys.findById(keyId)) fail('not_found', { what: `API key ${keyId}`, what_zh: `API 密钥 ${keyId}` });
      keys.setRateLimit(keyId, limit);
      return keyView(keys.findById(keyId) as ApiKeyRow);
    },
  };
}
export type AccountService = ReturnType<typeof createAccountService>;
