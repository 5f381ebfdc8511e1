-- Guardrails count visitors, not requests (docs/decisions.md "Experiment guardrails"): one row
-- per visitor (the edge's hash of IP and user agent) per experiment arm per 10-minute window,
-- at most 1,000 per arm and window from each instance, kept two days. network_hash is the visitor's IPv4 address
-- or IPv6 /64, so a network counts at most a few visitors.
CREATE TABLE IF NOT EXISTS experiment_visitors (
  experiment_id integer NOT NULL,
  variant_id integer NOT NULL,
  variant_key text NOT NULL,
  window_start timestamptz NOT NULL,
  visitor_hash bigint NOT NULL,
  tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  network_hash bigint NOT NULL,
  first_seen_at timestamptz NOT NULL,
  errored boolean NOT NULL DEFAULT false,
  slowest smallint NOT NULL DEFAULT 0,
  PRIMARY KEY (experiment_id, variant_id, variant_key, window_start, visitor_hash)
);
CREATE INDEX IF NOT EXISTS experiment_visitors_window_idx ON experiment_visitors (window_start);

-- The same visitor hash on a conversion (computed from the event request's IP and user agent),
-- so a converted visitor is one the edge exposed, not a client-supplied id.
ALTER TABLE experiment_events ADD COLUMN IF NOT EXISTS visitor_hash bigint;
CREATE INDEX IF NOT EXISTS experiment_events_visitor_idx
  ON experiment_events (experiment_id, variant_id, visitor_hash) WHERE visitor_hash IS NOT NULL;

-- Guardrails judge visitors first seen at or after this moment (the last restart after a stop).
ALTER TABLE experiments ADD COLUMN IF NOT EXISTS guardrail_since timestamptz;
