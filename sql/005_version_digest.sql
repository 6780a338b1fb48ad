-- A digest of each version's normalised values (the first 16 bytes of the
-- SHA-256 of version.norm), so that a load can tell an unchanged row without
-- reading the stored values back. NULL for versions written before it; those
-- are compared by their text.
ALTER TABLE version ADD COLUMN digest BLOB /* first 16 bytes of the SHA-256 of norm */;

-- The lookup of a record's current version reads only this index (record,
-- open end, tombstone flag, digest; the version id is the row id), never the
-- table rows with their values.
DROP INDEX version_current;
CREATE INDEX version_current ON version(record_id, valid_to, tombstone, digest);
