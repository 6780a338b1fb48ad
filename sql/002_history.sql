-- History: what kind of change opened each version, the field-by-field log,
-- renames, column changes, and the precedence that merges a model's fields
-- across exports.

-- kind: added (first version, or back after a removal), changed (a value
-- changed), renamed (the name changed, maybe values too), revised (only
-- values of columns new to the export arrived: not a change), removed (a
-- tombstone).
-- An added column's /* comment */ stays in the table's schema text (.schema)
-- next to the column; a -- comment would not.
ALTER TABLE version ADD COLUMN kind TEXT NOT NULL DEFAULT 'added' /* added, changed, renamed, revised, removed: what opened the version */;
-- the model's name in this version (a rename opens a version with the new one)
ALTER TABLE version ADD COLUMN name TEXT /* the model's name in this version */;
UPDATE version SET name = (SELECT name FROM record WHERE record.id = version.record_id);
UPDATE version SET kind = 'removed' WHERE tombstone = 1;
CREATE INDEX version_name ON version(name);

-- A row that was quarantined keeps its model's previous version in the
-- snapshot: held = 1 marks such rows.
ALTER TABLE snapshot_row ADD COLUMN held INTEGER NOT NULL DEFAULT 0 /* 1: a quarantined row; its model kept its previous version */;

-- Every changed field of every version: old and new normalised value.
CREATE TABLE field_change (
  id          INTEGER PRIMARY KEY,
  version_id  INTEGER NOT NULL REFERENCES version(id),
  record_id   INTEGER NOT NULL REFERENCES record(id),
  snapshot_export_id INTEGER NOT NULL REFERENCES snapshot_export(id),
  as_of       TEXT NOT NULL,             -- snapshot date
  export      TEXT NOT NULL,             -- source export
  field       TEXT NOT NULL,
  old         TEXT,                      -- NULL: had no value
  new         TEXT                       -- NULL: has no value now
);
CREATE INDEX field_change_record ON field_change(record_id);

-- A model found under a new name: same record, history kept.
CREATE TABLE rename (
  id          INTEGER PRIMARY KEY,
  record_id   INTEGER NOT NULL REFERENCES record(id),
  version_id  INTEGER NOT NULL REFERENCES version(id),
  snapshot_export_id INTEGER NOT NULL REFERENCES snapshot_export(id),
  as_of       TEXT NOT NULL,
  export      TEXT NOT NULL,
  old_name    TEXT NOT NULL,
  new_name    TEXT NOT NULL,
  evidence    TEXT NOT NULL              -- which rule matched (see docs/history.md)
);

-- Columns that appeared or disappeared in an export, recorded once per
-- snapshot; 'respelled': the header is spelled another way but maps onto
-- the same field (an alias), which is no column change.
CREATE TABLE column_change (
  snapshot_export_id INTEGER NOT NULL REFERENCES snapshot_export(id),
  kind        TEXT NOT NULL,             -- added, removed, respelled
  field       TEXT NOT NULL,             -- canonical field
  old_header  TEXT,                      -- respelled/removed: header before
  new_header  TEXT                       -- respelled/added: header now
);

-- Export precedence for merged views (pipelines/precedence.tsv; 1 wins).
CREATE TABLE precedence (
  export      TEXT PRIMARY KEY,
  rank        INTEGER NOT NULL
);

-- Every current value of every model, one row per export that has it.
CREATE VIEW current_value AS
SELECT v.name AS model, j.key AS field, j.value AS value, r.export AS export,
       v.valid_from AS snapshot, coalesce(p.rank, 1000000) AS rank, r.occurrence AS occurrence
FROM record r
JOIN version v ON v.record_id = r.id AND v.valid_to IS NULL AND v.tombstone = 0
JOIN json_each(v.norm) j
LEFT JOIN precedence p ON p.export = r.export;

-- A model's fields merged across exports: for each field, the value of the
-- export with the best precedence (first occurrence of a repeated name).
CREATE VIEW model_value AS
SELECT model, field, value, export, snapshot FROM (
  SELECT *, row_number() OVER (PARTITION BY model, field
                               ORDER BY rank, export, occurrence) AS pick
  FROM current_value)
WHERE pick = 1;
