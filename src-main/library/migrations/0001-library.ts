// Sessions, turns, images and the references a turn used (docs/main-process.md). Timestamps are ms since epoch.
import type { Migration } from './types.ts';

export const migration: Migration = {
  version: 1,
  name: '0001-library',
  up(db) {
    db.exec(`
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        environment TEXT NOT NULL CHECK (environment IN ('local', 'remote')),
        service_session_id TEXT,
        service_title TEXT,
        local_title TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX sessions_service ON sessions (environment, service_session_id) WHERE service_session_id IS NOT NULL;
      CREATE INDEX sessions_updated ON sessions (updated_at DESC, id DESC);

      CREATE TABLE turns (
        id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        environment TEXT NOT NULL,
        service_turn_id TEXT,
        request_json TEXT NOT NULL,
        estimate_json TEXT NOT NULL,
        model TEXT NOT NULL,
        purpose TEXT NOT NULL,
        prompt TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL CHECK (status IN ('running', 'succeeded', 'failed', 'outcome_unknown', 'cancelled')),
        credits_charged INTEGER,
        warnings_json TEXT NOT NULL DEFAULT '[]',
        request_id TEXT,
        error_json TEXT,
        outcome_note TEXT,
        started_at INTEGER NOT NULL,
        finished_at INTEGER,
        duration_ms INTEGER,
        retry_of TEXT REFERENCES turns (id) ON DELETE SET NULL,
        retry_at INTEGER
      );
      CREATE INDEX turns_session ON turns (session_id, started_at);
      CREATE INDEX turns_status ON turns (status);

      CREATE TABLE images (
        id TEXT PRIMARY KEY,
        turn_id TEXT NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        environment TEXT NOT NULL,
        filename TEXT NOT NULL,
        position INTEGER NOT NULL,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        starred INTEGER NOT NULL DEFAULT 0,
        download TEXT NOT NULL DEFAULT 'pending' CHECK (download IN ('pending', 'done', 'failed')),
        download_error TEXT,
        missing INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        -- Copied from the turn so gallery filters need no join.
        model TEXT NOT NULL,
        purpose TEXT NOT NULL,
        prompt TEXT NOT NULL DEFAULT ''
      );
      -- Gallery: a session's images newest first, and the filters on the same order.
      CREATE INDEX images_session_created ON images (session_id, created_at DESC, id DESC);
      CREATE INDEX images_created ON images (created_at DESC, id DESC);
      CREATE INDEX images_model ON images (model, created_at DESC);
      CREATE INDEX images_purpose ON images (purpose, created_at DESC);
      CREATE INDEX images_starred ON images (created_at DESC) WHERE starred = 1;
      CREATE INDEX images_pending ON images (download) WHERE download = 'pending';
      CREATE INDEX images_turn ON images (turn_id, position);

      CREATE TABLE turn_references (
        turn_id TEXT NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        image_id TEXT NOT NULL,
        PRIMARY KEY (turn_id, position)
      );
      CREATE INDEX turn_references_image ON turn_references (image_id);
    `);
  },
};
