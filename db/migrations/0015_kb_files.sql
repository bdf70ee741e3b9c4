-- Files a hub document links to by a relative path (a Notion page's copied attachments, a curated page's images),
-- kept in the index because connector runs discard their working directory: the index is the only durable copy.
-- One row per document and file; a file two documents link to is stored for each, and goes with its document.

CREATE TABLE kb_files (
  kh_id         text NOT NULL REFERENCES kb_documents (kh_id) ON DELETE CASCADE,
  path          text NOT NULL,
  content_type  text NOT NULL,
  bytes         bytea NOT NULL,
  sha256        text NOT NULL,
  PRIMARY KEY (kh_id, path)
);
CREATE INDEX kb_files_path_idx ON kb_files (path);
