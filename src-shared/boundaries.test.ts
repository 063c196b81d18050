// Proves the import-boundary lint rule of DESIGN.md §2 rejects forbidden imports (and allows the right ones).
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === '@typescript-eslint/no-restricted-imports' || m.ruleId === 'no-restricted-globals' || m.ruleId === 'layering/rooms').map((m) => m.message);
}

describe('import boundaries', () => {
  it.each([
    ['src-shared/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;\n"],
    ['src-shared/x.ts', "import fs from 'fs';\nexport const a = fs;\n"],
    ['src-shared/x.ts', "import { app } from 'electron';\nexport const a = app;\n"],
    ['src-shared/x.ts', "import { startService } from '../src-service/start.ts';\nexport const a = startService;\n"],
    ['src-shared/x.ts', 'export const a = process.env;\n'],
    ['src-shared/x.ts', 'export const a = window.location;\n'],
    ['src-renderer/x.ts', "import { join } from 'node:path';\nexport const a = join;\n"],
    ['src-renderer/x.ts', "import { ipcRenderer } from 'electron';\nexport const a = ipcRenderer;\n"],
    ['src-renderer/x.ts', "import { x } from '../src-main/library/db.ts';\nexport const a = x;\n"],
    ['src-service/x.ts', "import { app } from 'electron';\nexport const a = app;\n"],
    ['src-service/x.ts', "import { x } from '../src-main/api/client.ts';\nexport const a = x;\n"],
    ['src-main/files/x.ts', "import { app } from 'electron';\nexport const a = app;\n"],
    ['src-main/app/x.ts', "import { x } from '../../src-service/repos/accounts.ts';\nexport const a = x;\n"],
    ['src-main/library/x.ts', "import { x } from '../../src-service/sqlite/bootstrap.ts';\nexport const a = x;\n"],
    ['src-main/app/x.ts', "import { x } from '../../src-renderer/App.tsx';\nexport const a = x;\n"],
    ['src-preload/x.ts', "import { x } from '../src-main/ipc/handlers.ts';\nexport const a = x;\n"],
    ['src-main/domain/x.ts', "import { readFileSync } from 'node:fs';\nexport const a = readFileSync;\n"],
    ['src-main/domain/x.ts', "import { LibraryRepo } from '../library/library-repo.ts';\nexport const a = LibraryRepo;\n"],
    // The renderer's start-up evaluates no zod schemas: values from the contract's zod modules are refused.
    ['src-renderer/x.ts', "import { z } from 'zod';\nexport const a = z;\n"],
    ['src-renderer/features/x.ts', "import { THEMES } from '../../src-shared/ipc/settings.ts';\nexport const a = THEMES;\n"],
    ['src-renderer/features/x.ts', "import { API_SCOPES } from '../../src-shared/api.ts';\nexport const a = API_SCOPES;\n"],
    ['src-renderer/features/x.ts', "import { readGenerationData } from '../../src-shared/generation-data.ts';\nexport const a = readGenerationData;\n"],
  ])('rejects the forbidden import in %s: %s', async (filePath, code) => {
    expect(await boundaryErrors(filePath, code)).not.toEqual([]);
  });

  it.each([
    ['src-renderer/x.ts', "import { MODELS } from '../src-shared/catalog.ts';\nexport const a = MODELS;\n"],
    ['src-renderer/features/x.ts', "import { THEMES } from '../../src-shared/limits.ts';\nexport const a = THEMES;\n"],
    ['src-renderer/features/x.ts', "import type { Theme } from '../../src-shared/ipc/settings.ts';\nexport const a: Theme = 'dark';\n"],
    ['src-renderer/features/compose/generation-data-reader.ts', "export { readGenerationData } from '../../../src-shared/generation-data.ts';\n"],
    ['src-main/files/x.ts', "import { join } from 'node:path';\nexport const a = join;\n"],
    ['src-main/domain/x.ts', "import { ERROR_CODES } from '../../src-shared/errors.ts';\nexport const a = ERROR_CODES;\n"],
    ['src-main/app/x.ts', "import { startService } from '../../src-service/start.ts';\nexport const a = startService;\n"],
    ['src-main/library/x.ts', "import { transaction } from '../../src-service/sqlite/index.ts';\nexport const a = transaction;\n"],
    ['src-main/electron/x.ts', "import { app } from 'electron';\nexport const a = app;\n"],
    ['src-service/x.ts', "import { createServer } from 'node:http';\nexport const a = createServer;\n"],
    ['src-preload/x.ts', "import { contextBridge } from 'electron';\nexport const a = contextBridge;\n"],
  ])('allows %s: %s', async (filePath, code) => {
    expect(await boundaryErrors(filePath, code)).toEqual([]);
  });
});
