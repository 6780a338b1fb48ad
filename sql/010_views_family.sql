-- The views of 008 are of models: a record of another family (the
-- hardware export, pipelines/families.tsv) never is one, even when a card
-- and a model share a name. A content belongs to the models' family when
-- its header's key column is the models' key field, `Model` (its canonical
-- name in pipelines/columns.tsv; `System` is an alias of it). The other
-- views read model_piece, so this one filter serves them all.
DROP VIEW model_piece;
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
  AND EXISTS (SELECT 1 FROM export_column ec WHERE ec.snapshot_export_id = c.snapshot_export_id
              AND ec.field = 'Model' AND ec.type = 'key');
