-- AI transforms: rules, runs, token usage per UTC day, per-(tenant, profile) regenerate versions.
CREATE TABLE IF NOT EXISTS ai_rules (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  preset_id text NOT NULL,
  field_selector text NOT NULL,
  route_pattern text,
  profile text NOT NULL DEFAULT 'default',
  tone text,
  target_language text,
  custom_instruction text,
  constraints text,
  example_input text,
  example_output text,
  status text NOT NULL DEFAULT 'draft',
  version integer NOT NULL DEFAULT 1,
  created_by text REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS ai_rules_tenant_idx ON ai_rules(tenant_id, status);

CREATE TABLE IF NOT EXISTS ai_runs (
  id bigserial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  mode text NOT NULL,
  profile text,
  api_path text,
  status text NOT NULL,
  reason text,
  model text,
  rules_evaluated integer NOT NULL DEFAULT 0,
  fields_attempted integer NOT NULL DEFAULT 0,
  fields_transformed integer NOT NULL DEFAULT 0,
  fields_failed integer NOT NULL DEFAULT 0,
  fields_cached integer NOT NULL DEFAULT 0,
  model_calls integer NOT NULL DEFAULT 0,
  latency_ms integer NOT NULL DEFAULT 0,
  input_tokens integer NOT NULL DEFAULT 0,
  output_tokens integer NOT NULL DEFAULT 0,
  field_errors jsonb NOT NULL DEFAULT '[]'::jsonb,
  rule_summary jsonb NOT NULL DEFAULT '[]'::jsonb
);
CREATE INDEX IF NOT EXISTS ai_runs_tenant_idx ON ai_runs(tenant_id, id DESC);

CREATE TABLE IF NOT EXISTS ai_usage_daily (
  tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  day date NOT NULL,
  input_tokens bigint NOT NULL DEFAULT 0,
  output_tokens bigint NOT NULL DEFAULT 0,
  model_calls bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, day)
);

CREATE TABLE IF NOT EXISTS ai_regen_versions (
  tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  profile text NOT NULL,
  version integer NOT NULL DEFAULT 1,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, profile)
);
