-- The knowledge index: hub documents (markdown with YAML frontmatter) and their chunks. Vectors are stored as
-- real[] with the model and dimensions that made them, so these tables need no extension; the pgvector HNSW index
-- is an expression index (embedding::vector(<dims>)) that kb/open.ts creates for the active embedder's dimensions
-- once the extension is there. A server without pgvector still migrates; the hub then says what to install.

CREATE TABLE kb_documents (
  kh_id         text PRIMARY KEY,
  path          text NOT NULL UNIQUE,
  title         text NOT NULL,
  frontmatter   jsonb NOT NULL,
  body          text NOT NULL,
  sensitivity   text NOT NULL CHECK (sensitivity IN ('public', 'partner', 'internal', 'secret')),
  tags          text[] NOT NULL DEFAULT '{}',
  -- notion, slack or github for sources/<service>/..., hub for curated files
  source        text NOT NULL,
  source_url    text,
  source_hash   text,
  -- SHA-256 of the file's bytes: re-indexing a file with this hash writes nothing
  content_hash  text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX kb_documents_tags_idx ON kb_documents USING gin (tags);
CREATE INDEX kb_documents_source_idx ON kb_documents (source, path);

CREATE TABLE kb_chunks (
  chunk_id         text PRIMARY KEY,
  kh_id            text NOT NULL REFERENCES kb_documents (kh_id) ON DELETE CASCADE,
  ordinal          integer NOT NULL,
  heading          text NOT NULL,
  content          text NOT NULL,
  start_line       integer NOT NULL,
  end_line         integer NOT NULL,
  embedding        real[] NOT NULL,
  embedding_model  text NOT NULL,
  embedding_dims   integer NOT NULL,
  tsv              tsvector GENERATED ALWAYS AS (to_tsvector('english', heading || ' ' || content)) STORED
);
CREATE INDEX kb_chunks_document_idx ON kb_chunks (kh_id, ordinal);
CREATE INDEX kb_chunks_tsv_idx ON kb_chunks USING gin (tsv);

-- Markdown links between hub documents (by relative path or by kh-id), for the atlas.
CREATE TABLE kb_links (
  kh_id         text NOT NULL REFERENCES kb_documents (kh_id) ON DELETE CASCADE,
  href          text NOT NULL,
  target_path   text,
  target_kh_id  text,
  PRIMARY KEY (kh_id, href)
);
CREATE INDEX kb_links_target_path_idx ON kb_links (target_path);
CREATE INDEX kb_links_target_kh_id_idx ON kb_links (target_kh_id);

-- The embedder whose vectors the index holds. Switching embedder is refused until `keel kb reembed` rewrites
-- every vector and this row (the spec's rollback rule).
CREATE TABLE kb_embedder (
  singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  provider    text NOT NULL,
  model       text NOT NULL,
  dims        integer NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);

-- The highest sensitivity a token may read from the hub; NULL means the default (internal; admin tokens: secret).
ALTER TABLE api_tokens ADD COLUMN kb_clearance text CHECK (kb_clearance IN ('public', 'partner', 'internal', 'secret'));
