-- Views for people who query the catalogue (docs/sql.md). This migration
-- holds the part that does not depend on the column map: the models merged
-- across exports as the pages merge them (query_model() in
-- src/lib/db/query.c), now and over time, as one JSON object of values per
-- model. The typed, one-column-per-field views `models` and
-- `model_versions` are made from the column map on top of these
-- (src/lib/db/views.c, at every load).
--
-- A model is a name on a date: the versions (not tombstones) of every
-- export that carry that name, the n-th row of a repeated name apart as
-- "NAME#n" (never mixed with the first). A field's value is the one of the
-- export with the best precedence (precedence table, then export name)
-- whose header, as of that date, has the field: a column an export dropped
-- hides the values its unchanged rows still hold.

-- Looking a field up in a header (the views join on it).
CREATE INDEX export_column_field ON export_column(snapshot_export_id, field);

-- The contents of each export (its snapshot_export rows that are not
-- 'unchanged') and the days each stood for: from valid_from until valid_to
-- (the next content's date; NULL: still the latest). The header of a
-- content is its export_column rows.
CREATE VIEW export_content AS
SELECT snapshot_export_id, export, valid_from, valid_to FROM (
  SELECT se.id AS snapshot_export_id, se.export AS export, s.as_of AS valid_from,
         lead(s.as_of) OVER (PARTITION BY se.export ORDER BY s.as_of, se.id) AS valid_to
  FROM snapshot_export se JOIN snapshot s ON s.id = se.snapshot_id
  WHERE se.unchanged = 0)
WHERE valid_to IS NULL OR valid_to > valid_from;

-- A version of a record over one content of its export: the days on which
-- that version was read through that header.
CREATE VIEW model_piece AS
SELECT v.name || CASE WHEN r.occurrence > 1 THEN '#' || r.occurrence ELSE '' END AS model,
       r.id AS record_id, v.id AS version_id, r.export AS export,
       coalesce(p.rank, 1000000) AS rank, c.snapshot_export_id AS content_id,
       max(v.valid_from, c.valid_from) AS valid_from,
       CASE WHEN v.valid_to IS NULL THEN c.valid_to
            WHEN c.valid_to IS NULL THEN v.valid_to
            ELSE min(v.valid_to, c.valid_to) END AS valid_to
FROM version v
JOIN record r ON r.id = v.record_id
JOIN export_content c ON c.export = r.export
     AND (v.valid_to IS NULL OR c.valid_from < v.valid_to)
     AND (c.valid_to IS NULL OR c.valid_to > v.valid_from)
LEFT JOIN precedence p ON p.export = r.export
WHERE v.tombstone = 0 AND (v.valid_to IS NULL OR v.valid_to > v.valid_from)
  -- a model is a record of the models' family (pipelines/families.tsv):
  -- its content's key column is `Model` (the canonical name in
  -- pipelines/columns.tsv; `System` is an alias), never a hardware card
  -- that shares a name
  AND EXISTS (SELECT 1 FROM export_column ec WHERE ec.snapshot_export_id = c.snapshot_export_id
              AND ec.field = 'Model' AND ec.type = 'key');

-- The days a column removed from a record's export took a value of that
-- record off its page: a change of the model (its "Last updated").
CREATE VIEW record_column_removed AS
SELECT DISTINCT v.record_id AS record_id, s.as_of AS day
FROM column_change cc
JOIN snapshot_export se ON se.id = cc.snapshot_export_id
JOIN snapshot s ON s.id = se.snapshot_id
JOIN record r ON r.export = se.export
JOIN version v ON v.record_id = r.id AND v.tombstone = 0
     AND v.valid_from < s.as_of AND (v.valid_to IS NULL OR v.valid_to >= s.as_of)
WHERE cc.kind = 'removed'
AND EXISTS (SELECT 1 FROM json_each(v.norm) j WHERE j.key = cc.field);

-- Every model as of the latest snapshot: model, fields (a JSON object:
-- field -> normalised value, merged), exports (a JSON array, best
-- precedence first), last_updated (the last snapshot that changed a value
-- of the model in any export, as pages have it). The fields are folded
-- from the worst export to the best with json_patch(), each export's
-- values first limited to its header; the exports array is aggregated
-- from a subquery in precedence order, which SQLite keeps.
CREATE VIEW model_now AS
WITH cover AS MATERIALIZED (
  SELECT model, record_id, version_id, export, rank, content_id
  FROM model_piece WHERE valid_to IS NULL),
ranked AS MATERIALIZED (
  SELECT model, version_id, content_id,
         row_number() OVER (PARTITION BY model ORDER BY rank DESC, export DESC) AS k,
         count(*) OVER (PARTITION BY model) AS n
  FROM cover),
fold(model, k, n, fields) AS (
  SELECT model, k, n,
         (SELECT json_group_object(j.key, j.value) FROM version v, json_each(v.norm) j
          WHERE v.id = ranked.version_id AND EXISTS (SELECT 1 FROM export_column ec
                WHERE ec.snapshot_export_id = ranked.content_id AND ec.field = j.key))
  FROM ranked WHERE k = 1
  UNION ALL
  SELECT r.model, r.k, r.n, json_patch(fold.fields,
         (SELECT json_group_object(j.key, j.value) FROM version v, json_each(v.norm) j
          WHERE v.id = r.version_id AND EXISTS (SELECT 1 FROM export_column ec
                WHERE ec.snapshot_export_id = r.content_id AND ec.field = j.key)))
  FROM fold JOIN ranked r ON r.model = fold.model AND r.k = fold.k + 1),
summary AS (
  SELECT model, json_group_array(export) AS exports, max(updated) AS updated
  FROM (SELECT c.model, c.export,
               max((SELECT max(valid_from) FROM version WHERE record_id = c.record_id
                    AND kind IN ('added', 'changed', 'renamed', 'removed', 'revised')),
                   coalesce((SELECT max(day) FROM record_column_removed d
                             WHERE d.record_id = c.record_id), '')) AS updated
        FROM cover c ORDER BY c.model, c.rank, c.export)
  GROUP BY model)
SELECT s.model AS model, f.fields AS fields, s.exports AS exports,
       s.updated AS last_updated
FROM summary s JOIN fold f ON f.model = s.model AND f.k = f.n;

-- Every state of every model over time: model, valid_from (the snapshot
-- date it began), valid_to (the snapshot date it ended; NULL: current),
-- fields, exports and last_updated as in model_now. A new state begins
-- when any of them changes; the model on day D is the row with
-- valid_from <= D AND (valid_to IS NULL OR valid_to > D).
CREATE VIEW model_history AS
WITH piece AS MATERIALIZED (SELECT * FROM model_piece),
bound AS MATERIALIZED (
  SELECT model, valid_from AS day FROM piece
  UNION SELECT model, valid_to FROM piece WHERE valid_to IS NOT NULL),
cover AS MATERIALIZED (
  SELECT b.model AS model, b.day AS day, p.record_id, p.version_id, p.export, p.rank,
         p.content_id
  FROM bound b LEFT JOIN piece p ON p.model = b.model AND p.valid_from <= b.day
       AND (p.valid_to IS NULL OR p.valid_to > b.day)),
ranked AS MATERIALIZED (
  SELECT model, day, version_id, content_id,
         row_number() OVER (PARTITION BY model, day ORDER BY rank DESC, export DESC) AS k,
         count(*) OVER (PARTITION BY model, day) AS n
  FROM cover WHERE version_id IS NOT NULL),
fold(model, day, k, n, fields) AS (
  SELECT model, day, k, n,
         (SELECT json_group_object(j.key, j.value) FROM version v, json_each(v.norm) j
          WHERE v.id = ranked.version_id AND EXISTS (SELECT 1 FROM export_column ec
                WHERE ec.snapshot_export_id = ranked.content_id AND ec.field = j.key))
  FROM ranked WHERE k = 1
  UNION ALL
  SELECT r.model, r.day, r.k, r.n, json_patch(fold.fields,
         (SELECT json_group_object(j.key, j.value) FROM version v, json_each(v.norm) j
          WHERE v.id = r.version_id AND EXISTS (SELECT 1 FROM export_column ec
                WHERE ec.snapshot_export_id = r.content_id AND ec.field = j.key)))
  FROM fold JOIN ranked r ON r.model = fold.model AND r.day = fold.day AND r.k = fold.k + 1),
summary AS (
  SELECT model, day, json_group_array(export) FILTER (WHERE export IS NOT NULL) AS exports,
         max(updated) AS updated
  FROM (SELECT c.model, c.day, c.export,
               max((SELECT max(valid_from) FROM version WHERE record_id = c.record_id
                    AND valid_from <= c.day
                    AND kind IN ('added', 'changed', 'renamed', 'removed', 'revised')),
                   coalesce((SELECT max(day) FROM record_column_removed d
                             WHERE d.record_id = c.record_id AND d.day <= c.day), '')) AS updated
        FROM cover c ORDER BY c.model, c.day, c.rank, c.export)
  GROUP BY model, day),
state AS (
  SELECT s.model, s.day, f.fields, s.exports, s.updated,
         lag(s.day) OVER w IS NOT NULL AND lag(f.fields) OVER w IS f.fields
         AND lag(s.exports) OVER w IS s.exports AND lag(s.updated) OVER w IS s.updated AS same
  FROM summary s LEFT JOIN fold f ON f.model = s.model AND f.day = s.day AND f.k = f.n
  WINDOW w AS (PARTITION BY s.model ORDER BY s.day)),
kept AS (
  SELECT model, day, fields, exports, updated,
         lead(day) OVER (PARTITION BY model ORDER BY day) AS valid_to
  FROM state WHERE NOT same)
SELECT model, day AS valid_from, valid_to, fields, exports, updated AS last_updated
FROM kept WHERE fields IS NOT NULL;

-- model_value (sql/002_history.sql) merged the records that share a name
-- (SigLIP took SigLIP#2's Batch size) and showed values of columns an
-- export had dropped. Now: a model's fields as model_now merges them, one
-- row per field, naming the export and the snapshot date of the version
-- that gives the value.
DROP VIEW model_value;
CREATE VIEW model_value AS
SELECT model, field, value, export, snapshot FROM (
  SELECT p.model AS model, j.key AS field, j.value AS value, p.export AS export,
         v.valid_from AS snapshot,
         row_number() OVER (PARTITION BY p.model, j.key ORDER BY p.rank, p.export) AS pick
  FROM model_piece p CROSS JOIN version v ON v.id = p.version_id
  CROSS JOIN json_each(v.norm) j
  WHERE p.valid_to IS NULL AND EXISTS (SELECT 1 FROM export_column ec
        WHERE ec.snapshot_export_id = p.content_id AND ec.field = j.key))
WHERE pick = 1;
