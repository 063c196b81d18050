// Every name and code the user types is one line: a control character is refused by the contract, and the
// refusal names the field (what invalid_input shows).
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { IPC_METHODS } from './index.ts';
import { CONTROL_CHARACTERS_REFUSED } from './text-fields.ts';

const SHOT = { name: 'Front', purpose: 'free', model: 'nano-banana-2', ratio: '1:1', n: 1 };

/** [method, a valid input, the path of its name field]. */
const NAMED: Array<[keyof typeof IPC_METHODS, Record<string, unknown>, Array<string | number>]> = [
  ['productSave', { sku: 'MUG-1', name: 'Mug' }, ['sku']],
  ['productSave', { sku: 'MUG-1', name: 'Mug' }, ['name']],
  ['shotListSave', { name: 'Listing', shots: [SHOT] }, ['name']],
  ['shotListSave', { name: 'Listing', shots: [SHOT] }, ['shots', 0, 'name']],
  ['boardCreate', { name: 'Picks' }, ['name']],
  ['smartBoardSave', { name: 'Picks', filters: {} }, ['name']],
  ['libraryRenameSession', { sessionId: 'ls_1', title: 'Mugs' }, ['title']],
  ['localCreateKey', { name: 'ci', scopes: ['generate:write'] }, ['name']],
];

function withValue(input: Record<string, unknown>, path: Array<string | number>, value: string): unknown {
  const copy = structuredClone(input) as Record<string | number, unknown>;
  let at: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path.at(-1) as string | number] = value;
  return copy;
}

describe('one-line names in the IPC contract', () => {
  for (const [method, input, path] of NAMED) {
    it(`${method} refuses a control character in ${path.join('.')} and names it`, () => {
      const schema = IPC_METHODS[method].input as z.ZodType;
      expect(schema.safeParse(input).success).toBe(true);
      for (const bad of ['a\nb', 'a\tb', 'a\u0000b', 'a\u001bb', 'a\u007fb', 'a\u0085b']) {
        const parsed = schema.safeParse(withValue(input, path, bad));
        expect(parsed.success, JSON.stringify(bad)).toBe(false);
        expect(parsed.error?.issues[0]).toMatchObject({ path, message: CONTROL_CHARACTERS_REFUSED });
      }
      // Other characters of any script stay welcome.
      expect(schema.safeParse(withValue(input, path, '白瓷杯 – “Nº 1” 🍵')).success).toBe(true);
    });
  }
});
