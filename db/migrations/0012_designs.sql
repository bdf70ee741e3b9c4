-- An org's own designs (POST /v1/designs), beside the ones Keel ships in products/designs.yaml. The id is unique
-- within the org; tokens are stored as the validated JSON the API accepted.
CREATE TABLE designs (
  org_id       text NOT NULL,
  design_id    text NOT NULL,
  name         text NOT NULL,
  description  text NOT NULL DEFAULT '',
  keywords     text[] NOT NULL DEFAULT '{}',
  tokens       jsonb NOT NULL,
  layout       text NOT NULL,
  created_by   text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, design_id)
);
