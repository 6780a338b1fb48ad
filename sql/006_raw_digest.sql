-- Telling an unchanged row without normalising it: a digest of each
-- version's raw record (its fields as read; NULL for versions loaded from
-- a staging file) and of the header and column map each export was read
-- with. A row whose raw digest matches its record's current version, under
-- the same header digest, reads the same and is taken as unchanged.
ALTER TABLE version ADD COLUMN raw_digest BLOB /* first 16 bytes of the SHA-256 of the raw row it last stood for */;
ALTER TABLE snapshot_export ADD COLUMN header_digest TEXT /* SHA-256 of the header and the column map it was read with */;
DROP INDEX version_current;
CREATE INDEX version_current ON version(record_id, valid_to, tombstone, digest, raw_digest);
