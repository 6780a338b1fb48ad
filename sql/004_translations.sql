-- Page text merged by `modelcat translate` from the XLIFF catalogues in
-- translations/ (docs/pages.md): for each language, every text the pages
-- use, and where it came from. The page renderer reads only these tables.

-- One row per language and text.
CREATE TABLE translation (
  lang        TEXT NOT NULL,             -- language code: en, nl, ...
  key         TEXT NOT NULL,             -- the catalogue entry (trans-unit id)
  text        TEXT NOT NULL,             -- what the page prints, as a template:
                                         -- {name} placeholders, {[}...{]} optional
  status      TEXT NOT NULL,             -- source (the English base), translated,
                                         -- missing, stale or invalid (the last
                                         -- three hold the English text)
  line        INTEGER,                   -- line of the unit in its file, if any
  PRIMARY KEY (lang, key)
) WITHOUT ROWID;

-- One row per language: the catalogue merged, when, and what the merge found.
CREATE TABLE translation_catalogue (
  lang        TEXT PRIMARY KEY,
  file        TEXT NOT NULL,             -- the catalogue file as read
  merged_at   TEXT NOT NULL,             -- when (UTC, ISO 8601)
  entries     INTEGER NOT NULL,          -- English entries merged
  translated  INTEGER NOT NULL,
  missing     INTEGER NOT NULL,          -- no translation: English used
  stale       INTEGER NOT NULL,          -- English changed since: English used
  invalid     INTEGER NOT NULL,          -- bad placeholders: English used
  unknown     INTEGER NOT NULL           -- ids English does not have
);
