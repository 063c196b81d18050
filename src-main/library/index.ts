// Front door of the library: library.db (sessions, turns, images, boards, app facts), its recovery and
// backups, and the library's IPC handlers.
export { openLibraryDatabase, preparedOnce, transaction, type LibraryDatabase } from './database.ts';
export { LibraryRepo, isValidCursor, storedError, storedNote, type NewImage, type NewTurn, type PendingDownload, type TurnPatch } from './library-repo.ts';
export { AppMeta } from './app-meta.ts';
export { SendJournal, SEND_JOURNAL_FILE, type SentTurn } from './send-journal.ts';
export { backupLibrary, damagedName, listBackups, openLibraryWithRecovery } from './recovery.ts';
export { LibraryBackups, BACKUP_INTERVAL_MS } from './backups.ts';
export { narrowDataFolder, PRIVATE_FOLDER } from './private-files.ts';
export { createLibraryHandlers, type LibraryMethods } from './handlers.ts';
