-- Stored AI outputs with provenance and review state (docs/decisions.md "AI outputs").
-- One row per (rule, API path, field): the output the rule produced for the field's current
-- source value, with what produced it (model, preset version, prompt hash, source hash,
-- tokens). status: auto (served as produced), pending (review mode, not served yet),
-- approved, rejected (source served), edited (a person's text), source_changed (a pinned
-- output whose source moved on). `version` rises on every change (stale writes get 409).
ALTER TABLE ai_rules ADD COLUMN IF NOT EXISTS review_mode text NOT NULL DEFAULT 'auto';

CREATE TABLE IF NOT EXISTS ai_outputs (
  id bigserial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  rule_id integer NOT NULL REFERENCES ai_rules(id) ON DELETE CASCADE,
  rule_version integer NOT NULL,
  profile text NOT NULL,
  path text NOT NULL,
  field text NOT NULL,
  source text NOT NULL,
  source_hash text NOT NULL,
  output text NOT NULL,
  status text NOT NULL,
  pinned boolean NOT NULL DEFAULT false,
  model text NOT NULL,
  preset_id text NOT NULL,
  preset_version integer NOT NULL,
  prompt_hash text NOT NULL,
  tokens integer NOT NULL DEFAULT 0,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, rule_id, path, field)
);
CREATE INDEX IF NOT EXISTS ai_outputs_tenant_idx ON ai_outputs(tenant_id, id);
CREATE INDEX IF NOT EXISTS ai_outputs_moderated_idx ON ai_outputs(tenant_id, profile)
  WHERE status <> 'auto' OR pinned;
