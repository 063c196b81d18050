// The one statement cache of the project: every repository of service.db, library.db and inspector.db asks it
// for its statements, so each SQL text is prepared once per connection however many repositories use it.
import type { DatabaseSync, StatementSync } from 'node:sqlite';

/** Distinct SQL texts kept per connection; built queries (gallery filters) could otherwise grow it forever. */
const MAX_STATEMENTS = 500;

const caches = new WeakMap<DatabaseSync, Map<string, StatementSync>>();

/** The connection's statement for `sql`, prepared on first use and kept (up to MAX_STATEMENTS texts). */
export function statement(db: DatabaseSync, sql: string): StatementSync {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let found = cache.get(sql);
  if (!found) {
    found = db.prepare(sql);
    if (cache.size >= MAX_STATEMENTS) cache.clear();
    cache.set(sql, found);
  }
  return found;
}

/** `statement` bound to one connection: what a repository keeps as its `sql(text)`. */
export function preparedOnce(db: DatabaseSync): (sql: string) => StatementSync {
  return (sql) => statement(db, sql);
}
