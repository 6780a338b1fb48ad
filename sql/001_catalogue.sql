-- The catalogue: snapshots of the exports, models as versioned records,
-- and the rows that could not be loaded. Applied once, in one transaction;
-- the version is recorded in schema_version.

-- One ingest of one or more export files taken on the same day.
CREATE TABLE snapshot (
  id          INTEGER PRIMARY KEY,
  as_of       TEXT NOT NULL,             -- YYYY-MM-DD the snapshot stands for
  ingested_at TEXT NOT NULL              -- when it was loaded (UTC, ISO 8601)
);
CREATE INDEX snapshot_as_of ON snapshot(as_of);

-- One export file within a snapshot.
CREATE TABLE snapshot_export (
  id          INTEGER PRIMARY KEY,
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id),
  export      TEXT NOT NULL,             -- notable_ai_models, all_ai_models, ...
  file        TEXT NOT NULL,             -- the file as named on the command line
  sha256      TEXT NOT NULL,             -- of the content (decompressed bytes),
                                         -- as the store's manifest has it
  bytes       INTEGER NOT NULL,          -- size of the content
  rows        INTEGER NOT NULL,          -- data rows read
  loaded      INTEGER NOT NULL,          -- rows loaded
  quarantined INTEGER NOT NULL,          -- rows quarantined
  -- unchanged: 1: same content as the export's previous snapshot; nothing
  -- written (its comment above it: migration 006 adds a column after it)
  unchanged   INTEGER NOT NULL DEFAULT 0,
  UNIQUE (snapshot_id, export)
);
CREATE INDEX snapshot_export_by_export ON snapshot_export(export, snapshot_id);

-- The header of each export file, cell by cell.
CREATE TABLE export_column (
  snapshot_export_id INTEGER NOT NULL REFERENCES snapshot_export(id),
  position    INTEGER NOT NULL,          -- 0-based position in the file
  header      TEXT NOT NULL,             -- the header cell, trimmed
  field       TEXT NOT NULL,             -- canonical field it maps onto
  type        TEXT NOT NULL,             -- key, text, list, number, date, enum, bool
  declared    INTEGER NOT NULL,          -- 0: not in the column map, kept as text
  headerless  INTEGER NOT NULL,          -- 1: empty header cell
  PRIMARY KEY (snapshot_export_id, position)
) WITHOUT ROWID;

-- A model within one export: its identity. Duplicate names inside one
-- export are told apart by occurrence (1 for the first row in file order).
CREATE TABLE record (
  id          INTEGER PRIMARY KEY,
  export      TEXT NOT NULL,
  name        TEXT NOT NULL,             -- trimmed model name
  occurrence  INTEGER NOT NULL DEFAULT 1,
  UNIQUE (export, name, occurrence)
);

-- A version of a record: its values from valid_from until valid_to.
CREATE TABLE version (
  id          INTEGER PRIMARY KEY,
  record_id   INTEGER NOT NULL REFERENCES record(id),
  snapshot_export_id INTEGER NOT NULL REFERENCES snapshot_export(id),
  valid_from  TEXT NOT NULL,             -- snapshot date that opened it
  valid_to    TEXT,                      -- snapshot date that closed it; NULL: current
  tombstone   INTEGER NOT NULL DEFAULT 0,-- 1: the record left the export here
  line        INTEGER,                   -- line of the row in the file
  norm        TEXT NOT NULL,             -- JSON object: field -> normalised value
                                         -- (fields with a value only, sorted)
  raw         TEXT NOT NULL              -- JSON object: field -> raw cell, for
                                         -- the cells whose raw text differs
                                         -- from the normalised value
);
CREATE INDEX version_current ON version(record_id, valid_to);

-- Which versions made up an export in a snapshot, in file order.
CREATE TABLE snapshot_row (
  snapshot_export_id INTEGER NOT NULL REFERENCES snapshot_export(id),
  position    INTEGER NOT NULL,          -- 0-based data row index in the file
  version_id  INTEGER NOT NULL REFERENCES version(id),
  PRIMARY KEY (snapshot_export_id, position)
) WITHOUT ROWID;

-- Rows that could not be loaded, with where and why.
CREATE TABLE quarantine (
  id          INTEGER PRIMARY KEY,
  snapshot_export_id INTEGER NOT NULL REFERENCES snapshot_export(id),
  file        TEXT NOT NULL,
  line        INTEGER NOT NULL,
  field       TEXT,                      -- the field at fault, if one is
  name        TEXT,                      -- the model name, if the row had one
  reason      TEXT NOT NULL,
  raw         TEXT NOT NULL              -- the row as read, re-encoded as CSV
);

-- Things noticed while loading that are not errors: undeclared columns,
-- unknown enumeration values, repeated names.
CREATE TABLE notice (
  id          INTEGER PRIMARY KEY,
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id),
  message     TEXT NOT NULL
);
