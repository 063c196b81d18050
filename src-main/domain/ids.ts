// The ids main gives what it records locally: turns (`lt_…`) and sessions (`ls_…`). The service's ids are
// its own; these never leave the library except as references the renderer passes back.
import { randomAlphanumeric } from '../../src-shared/ids.ts';

export function newLocalId(prefix: 'lt_' | 'ls_'): string {
  return prefix + randomAlphanumeric(10);
}
