// Main may import src-service/sqlite/ (the shared bootstrap), so this folder must not pull in the rest of the
// service: its modules import only Node built-ins and each other.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const here = import.meta.dirname;

describe('src-service/sqlite boundary', () => {
  it('imports only node: modules and files of its own folder', () => {
    const outside: string[] = [];
    for (const name of readdirSync(here).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))) {
      const text = readFileSync(join(here, name), 'utf8');
      for (const [, from] of text.matchAll(/from '([^']+)'/g)) {
        if (!from!.startsWith('node:') && !/^\.\/[^/]+\.ts$/.test(from!)) outside.push(`${name} → ${from}`);
      }
    }
    expect(outside).toEqual([]);
  });
});
