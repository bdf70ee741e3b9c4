-- One row per connector (connectors spec, "Cursor persistence"): the JSON cursor the next run starts from. The run
-- writes it after each record it wrote and indexed, so a crash resumes there. The shape is the connector's own
-- (validated by its zod cursorSchema on read), hence jsonb rather than columns.
-- IF NOT EXISTS throughout: the same statements run at boot against a database that may already hold them.
CREATE TABLE IF NOT EXISTS connector_state (
  connector   text PRIMARY KEY CHECK (connector IN ('notion', 'slack', 'github')),
  cursor      jsonb NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);
