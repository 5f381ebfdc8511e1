-- Edge projection: a write that affects the edge bumps its tenant's generation here in
-- the same transaction; the projector writes the snapshot to KV with that generation and records
-- it as projected. Keyed by slug, so a deleted tenant's snapshot is removed by slug and a slug
-- used again continues the sequence (KV refuses an older generation).
CREATE TABLE IF NOT EXISTS edge_changes (
  slug text PRIMARY KEY,
  tenant_id integer NOT NULL,
  generation bigint NOT NULL DEFAULT 1,
  projected_generation bigint NOT NULL DEFAULT 0,
  changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS edge_changes_behind ON edge_changes (changed_at)
  WHERE generation > projected_generation;
-- Existing tenants: projected once by the first instance that starts.
INSERT INTO edge_changes (slug, tenant_id) SELECT slug, id FROM tenants ON CONFLICT DO NOTHING;

-- One row naming this database installation: the second cache tier's name carries it, so a
-- fresh or restored database never reads another database's cached entries.
CREATE TABLE IF NOT EXISTS installation (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  id text NOT NULL
);
INSERT INTO installation (id) VALUES (gen_random_uuid()::text) ON CONFLICT DO NOTHING;
