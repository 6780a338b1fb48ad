-- Guards against damaged input (pipelines/guards.tsv, docs/operations.md).
-- An export's file that trips a guard is held: nothing of it is applied
-- (no snapshot_export row; its previous versions stay current) and the
-- snapshot records here that it was held, and why.
CREATE TABLE held_export (
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id),
  export      TEXT NOT NULL,             -- the export held
  sha256      TEXT NOT NULL,             -- of its content
  guard       TEXT NOT NULL,             -- empty, remove, quarantine, columns
  reason      TEXT NOT NULL,             -- the guard and the numbers, a sentence
  PRIMARY KEY (snapshot_id, export)
);

-- A model that no loaded row carries but whose name is in the raw text of
-- a row quarantined in the same snapshot: it keeps its current version
-- (its row is likely inside the broken one) and is listed here.
CREATE TABLE held_model (
  snapshot_id INTEGER NOT NULL REFERENCES snapshot(id),
  export      TEXT NOT NULL,
  name        TEXT NOT NULL,             -- the model kept
  line        INTEGER NOT NULL,          -- the quarantined row's line
  PRIMARY KEY (snapshot_id, export, name)
);

-- Content applied with --accept although a guard held it: reingest and
-- later loads of the same content (export, SHA-256) apply it too.
CREATE TABLE accepted_content (
  export      TEXT NOT NULL,
  sha256      TEXT NOT NULL,
  accepted_at TEXT NOT NULL,             -- when (UTC, ISO 8601)
  PRIMARY KEY (export, sha256)
);
