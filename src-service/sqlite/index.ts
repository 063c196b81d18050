// The project's SQLite bootstrap, the one way any process opens a database: the service's service.db, main's
// library.db and inspector.db. Main may import this folder (through this file) and start.ts, nothing else of
// src-service; so nothing here imports the rest of the service (sqlite/boundary.test.ts checks it).
export { migrate, openSqliteDatabase, transaction, type SqliteMigration } from './bootstrap.ts';
export { preparedOnce, statement } from './statements.ts';
