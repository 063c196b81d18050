import { describe, expect, it } from 'vitest';
import { newCatalogId, newLocalId } from '../../src-main/domain/ids.ts';
import { ID_SHAPES, newDeliveryId, newId, type IdKind } from '../ids.ts';
import { HeaderTokenSchema, ID_MAX_LENGTH, IdSchema } from './contract.ts';

describe('the id rule of the IPC contract', () => {
  it('takes every id the app, the service and the presets hand out', () => {
    const service = (Object.keys(ID_SHAPES) as IdKind[]).map((kind) => newId(kind));
    const local = [newLocalId('lt_'), newLocalId('ls_'), newLocalId('bd_'), newLocalId('sb_'), newCatalogId('pr_'), newCatalogId('bj_')];
    for (const id of [...service, ...local, 'key_AbCdEf1234', 'r_abcdefABCDEF', 'amazon-main', newDeliveryId(), 'n1']) {
      expect(IdSchema.safeParse(id).success, id).toBe(true);
    }
  });

  it('refuses empty, over-long and anything outside letters, digits, _ and -', () => {
    for (const id of ['', 'a'.repeat(ID_MAX_LENGTH + 1), 'img_\uD800', 'img_é', '../x', 'a b', 'a\u0000', 'a/b', 'a.b']) {
      expect(IdSchema.safeParse(id).success, JSON.stringify(id)).toBe(false);
    }
    expect(IdSchema.safeParse('a'.repeat(ID_MAX_LENGTH)).success).toBe(true);
  });

  it('takes a printable ASCII header value (trimmed) and refuses non-ASCII or control characters', () => {
    expect(HeaderTokenSchema.parse('  publish-2026/11 #1  ')).toBe('publish-2026/11 #1');
    for (const key of ['', '   ', 'clé', 'key\u00A0x', 'a\nb', 'a\u0000b', 'x'.repeat(201), '\uD800']) {
      expect(HeaderTokenSchema.safeParse(key).success, JSON.stringify(key)).toBe(false);
    }
  });
});
