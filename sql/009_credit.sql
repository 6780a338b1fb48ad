-- The credit a bundle carries (a zip of several exports with a README.md:
-- Epoch's ai_models.zip): its licence and citation, stored with the
-- snapshot that loaded it and shown where the data is credited (the model
-- pages' sources, the audit). docs/store.md, "Bundles".
CREATE TABLE snapshot_credit (
  snapshot_id INTEGER PRIMARY KEY REFERENCES snapshot(id),
  file        TEXT NOT NULL,             -- the bundle the text came from
  citation    TEXT NOT NULL,             -- the citation, one line ('' when none)
  licence     TEXT NOT NULL,             -- the licence paragraph ('' when none)
  readme      TEXT NOT NULL              -- the README.md as it was
);
