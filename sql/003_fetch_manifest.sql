-- The fetch manifest: a copy, in the catalogue, of the snapshot store's
-- MANIFEST.tsv (see docs/store.md). One row per line of that file: every
-- fetch that stored a snapshot, saw a content already stored, or was told
-- nothing had changed (HTTP 304). `modelcat fetch` adds the lines the
-- catalogue does not hold yet, so a rebuilt catalogue catches up on the
-- next fetch.
CREATE TABLE fetch_manifest (
  id             INTEGER PRIMARY KEY,
  store          TEXT NOT NULL,          -- the snapshot store (absolute path)
  line           INTEGER NOT NULL,       -- line in <store>/MANIFEST.tsv
  fetched_at     TEXT NOT NULL,          -- UTC, YYYY-MM-DDTHH:MM:SSZ
  source         TEXT NOT NULL,          -- notable_ai_models, ...
  event          TEXT NOT NULL,          -- stored, seen, not-modified
  file           TEXT NOT NULL,          -- snapshot holding the content,
                                         -- relative to the store
  url            TEXT NOT NULL,          -- URL requested
  http_status    INTEGER NOT NULL,       -- 200, 304; 0 for file://
  etag           TEXT NOT NULL,          -- validators of the response ('' if none)
  last_modified  TEXT NOT NULL,
  sha256         TEXT NOT NULL,          -- of the decompressed content
  format         TEXT NOT NULL,          -- the body as served: csv, gzip, zip
  bytes          INTEGER NOT NULL,       -- decompressed content size
  stored_bytes   INTEGER NOT NULL,       -- size of the snapshot file
  download_bytes INTEGER NOT NULL,       -- bytes received (0 for a 304)
  rows           INTEGER NOT NULL,       -- data rows
  UNIQUE (store, line)
);
CREATE INDEX fetch_manifest_by_source ON fetch_manifest(source, fetched_at);
