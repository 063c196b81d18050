// The mark cells that per-session and per-turn stats keep (migrations 0300 and 0600): how many images have each
// combination of marks, cell = starred × 12 + rating × 2 + rejected (0–23). Shared SQL text; what a migration
// wrote with it never changes, so neither does this.

export const MARK_CELLS = 24;
const cells = Array.from({ length: MARK_CELLS }, (_, k) => k);

/** An image row's cell: `(new.starred * 12 + new.rating * 2 + new.rejected)`. */
export function markCell(row: 'new' | 'old'): string {
  return `(${row}.starred * 12 + ${row}.rating * 2 + ${row}.rejected)`;
}

/** `c0 = c0 + (cell(new) = 0) - (cell(old) = 0), …` for the rows given. */
export function cellChanges(add: 'new' | null, remove: 'old' | null): string {
  return cells.map((k) => `c${k} = c${k}${add ? ` + (${markCell(add)} = ${k})` : ''}${remove ? ` - (${markCell(remove)} = ${k})` : ''}`).join(', ');
}

/** `c0 INTEGER NOT NULL DEFAULT 0, …`. */
export function cellColumns(): string {
  return cells.map((k) => `c${k} INTEGER NOT NULL DEFAULT 0`).join(', ');
}

/** The cells' names, `c0, c1, …`. */
export function cellNames(): string {
  return cells.map((k) => `c${k}`).join(', ');
}

/** Each cell counted over `images` rows: `SUM(starred * 12 + rating * 2 + rejected = 0), …` (`alias.` prefixes the columns). */
export function cellSums(alias = ''): string {
  return cells.map((k) => `SUM(${alias}starred * 12 + ${alias}rating * 2 + ${alias}rejected = ${k})`).join(', ');
}
