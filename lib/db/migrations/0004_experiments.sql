-- AI experiments: definitions, variants, stored conversion events (SPEC "AI experiment",
-- "Experiment event"). Exposures live in exposure_counts (0001_core.sql), flushed by usage.
CREATE TABLE IF NOT EXISTS experiments (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  name text NOT NULL,
  route_pattern text NOT NULL DEFAULT '/',
  route_match text NOT NULL DEFAULT 'prefix',
  status text NOT NULL DEFAULT 'draft',
  created_by text REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  archived_at timestamptz
);
CREATE INDEX IF NOT EXISTS experiments_tenant_idx ON experiments(tenant_id, status);

-- Variants are replaced as a set (PUT variants): new rows get new ids, so historical
-- exposures and events of a replaced variant no longer match (SPEC "Exposure summary").
CREATE TABLE IF NOT EXISTS experiment_variants (
  id serial PRIMARY KEY,
  experiment_id integer NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
  tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  key text NOT NULL,
  label text NOT NULL,
  weight integer NOT NULL DEFAULT 1 CHECK (weight > 0),
  transform_profile text,
  position integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (experiment_id, key)
);
CREATE INDEX IF NOT EXISTS experiment_variants_experiment_idx
  ON experiment_variants(experiment_id, position);

-- One row per accepted POST /api/ai-experiments/events; never deduplicated (SPEC rule 7).
-- No foreign key to the variant: events outlive a replaced variant set.
CREATE TABLE IF NOT EXISTS experiment_events (
  id bigserial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  experiment_id integer NOT NULL,
  variant_id integer NOT NULL,
  variant_key text NOT NULL,
  event_name text NOT NULL,
  visitor_id text,
  session_id text,
  url text,
  referrer text,
  metadata jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS experiment_events_summary_idx
  ON experiment_events(tenant_id, experiment_id, event_name, variant_id);
