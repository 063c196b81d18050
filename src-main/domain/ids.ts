// The ids main gives what it records locally: turns (`lt_…`), sessions (`ls_…`), boards (`bd_…`) and smart boards
// (`sb_…`), and the catalog's products, shot lists, batches and jobs. The service's ids are its own; these never
// leave the library except as references the renderer passes back.
import { randomAlphanumeric } from '../../src-shared/ids.ts';

export function newLocalId(prefix: 'lt_' | 'ls_' | 'bd_' | 'sb_'): string {
  return prefix + randomAlphanumeric(10);
}

export function newCatalogId(prefix: 'pr_' | 'sl_' | 'bt_' | 'bj_'): string {
  return prefix + randomAlphanumeric(12);
}
