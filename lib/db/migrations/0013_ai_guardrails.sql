-- Experiment guardrails and promotion (docs/decisions.md "Experiment guardrails").
-- guardrails: {maxErrorRate?, maxP95Ms?, minConversionRate?, goal?} or NULL. A guardrail
-- breach sets status 'stopped' with stop_reason; "promote winner" sets status 'promoted' and
-- promoted_variant_id (the route then serves that variant to everyone).
ALTER TABLE experiments ADD COLUMN IF NOT EXISTS guardrails jsonb;
ALTER TABLE experiments ADD COLUMN IF NOT EXISTS stop_reason text;
ALTER TABLE experiments ADD COLUMN IF NOT EXISTS stopped_at timestamptz;
ALTER TABLE experiments ADD COLUMN IF NOT EXISTS promoted_variant_id integer;
CREATE INDEX IF NOT EXISTS experiments_guarded_idx ON experiments(id)
  WHERE status = 'active' AND guardrails IS NOT NULL;

-- Per-variant answer health, from the same in-memory exposure counters (no write per request):
-- answers with status >= 500, and answer time per bucket (lib/usage/latency.ts bounds).
ALTER TABLE exposure_counts ADD COLUMN IF NOT EXISTS errors bigint NOT NULL DEFAULT 0;
ALTER TABLE exposure_counts ADD COLUMN IF NOT EXISTS latency_buckets bigint[] NOT NULL
  DEFAULT '{}';
