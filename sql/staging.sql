-- The staging file that modelcat-parse --out writes and modelcat-load
-- reads: one parsed export (docs/architecture.md). Not a migration of the
-- catalogue: a new staging file gets these tables (src/lib/db/staging.c).
CREATE TABLE staging_export (export TEXT NOT NULL, file TEXT NOT NULL,
  sha256 TEXT NOT NULL, bytes INTEGER NOT NULL, rows INTEGER, quarantined INTEGER);
CREATE TABLE staging_column (position INTEGER PRIMARY KEY, header TEXT NOT NULL,
  field TEXT NOT NULL, type TEXT NOT NULL, declared INTEGER NOT NULL,
  headerless INTEGER NOT NULL);
CREATE TABLE staging_row (position INTEGER PRIMARY KEY, line INTEGER NOT NULL,
  name TEXT NOT NULL, occurrence INTEGER NOT NULL, quarantined INTEGER NOT NULL,
  field TEXT, reason TEXT, raw_csv TEXT, norm TEXT, raw TEXT);
CREATE TABLE staging_notice (id INTEGER PRIMARY KEY, message TEXT NOT NULL);
