-- Core: identity, tenants, membership, audit, domains, cache-refresh webhooks, usage.
CREATE TABLE IF NOT EXISTS users (
  id text PRIMARY KEY,
  email text NOT NULL UNIQUE,
  password_hash text NOT NULL,
  name text,
  blocked boolean NOT NULL DEFAULT false,
  blocked_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS api_tokens (
  id serial PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX IF NOT EXISTS api_tokens_user_idx ON api_tokens(user_id);

CREATE TABLE IF NOT EXISTS tenants (
  id serial PRIMARY KEY,
  slug text NOT NULL UNIQUE,
  cms text NOT NULL,
  cloud_name text,
  website_domain text,
  website_origin text,
  cache_ttl integer NOT NULL DEFAULT 60,
  api_origin text,
  api_auth_mode text NOT NULL DEFAULT 'none',
  api_auth_header text,
  api_token_enc text,
  api_token_updated_at timestamptz,
  settings jsonb NOT NULL DEFAULT '{}'::jsonb,
  api_cache_version integer NOT NULL DEFAULT 1,
  asset_cache_version integer NOT NULL DEFAULT 1,
  html_cache_version integer NOT NULL DEFAULT 1,
  publish_secret_enc text,
  created_by text REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS tenant_members (
  tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, user_id)
);
CREATE INDEX IF NOT EXISTS tenant_members_user_idx ON tenant_members(user_id);

CREATE TABLE IF NOT EXISTS invites (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  email text NOT NULL,
  role text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  invited_by text REFERENCES users(id) ON DELETE SET NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  accepted_at timestamptz,
  accepted_by text REFERENCES users(id) ON DELETE SET NULL
);
CREATE INDEX IF NOT EXISTS invites_tenant_idx ON invites(tenant_id);

CREATE TABLE IF NOT EXISTS audit_events (
  id bigserial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  actor_user_id text,
  action text NOT NULL,
  target text,
  metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS audit_events_tenant_id_idx ON audit_events(tenant_id, id DESC);

CREATE TABLE IF NOT EXISTS domains (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  hostname text NOT NULL UNIQUE,
  status text NOT NULL DEFAULT 'pending',
  verification_token text NOT NULL,
  failure_reason text,
  verified_at timestamptz,
  last_checked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS domains_tenant_idx ON domains(tenant_id);

CREATE TABLE IF NOT EXISTS cache_refresh_webhooks (
  id serial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  provider text NOT NULL,
  secret_hash text NOT NULL,
  refresh_api boolean NOT NULL DEFAULT true,
  refresh_assets boolean NOT NULL DEFAULT false,
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  last_triggered_at timestamptz,
  last_status text,
  deleted_at timestamptz
);
CREATE INDEX IF NOT EXISTS cache_refresh_webhooks_tenant_idx ON cache_refresh_webhooks(tenant_id);

-- No foreign key to the webhook: event rows outlive a deleted webhook (SPEC).
CREATE TABLE IF NOT EXISTS webhook_events (
  id bigserial PRIMARY KEY,
  webhook_id integer NOT NULL,
  tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  status text NOT NULL,
  event_type text,
  refresh_type text,
  message text,
  previous_api_cache_version integer,
  next_api_cache_version integer,
  received_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  duration_ms integer,
  kv_synced_at timestamptz
);
CREATE INDEX IF NOT EXISTS webhook_events_webhook_idx ON webhook_events(webhook_id, id DESC);

CREATE TABLE IF NOT EXISTS usage_daily (
  tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  day date NOT NULL,
  requests bigint NOT NULL DEFAULT 0,
  bytes bigint NOT NULL DEFAULT 0,
  hits bigint NOT NULL DEFAULT 0,
  misses bigint NOT NULL DEFAULT 0,
  stale bigint NOT NULL DEFAULT 0,
  bypass bigint NOT NULL DEFAULT 0,
  errors bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, day)
);

CREATE TABLE IF NOT EXISTS request_logs (
  id bigserial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  ts timestamptz NOT NULL DEFAULT now(),
  method text NOT NULL,
  path text NOT NULL,
  status integer NOT NULL,
  bytes bigint NOT NULL DEFAULT 0,
  cache text,
  duration_ms integer,
  kind text,
  experiment_id integer,
  variant_id integer
);
CREATE INDEX IF NOT EXISTS request_logs_tenant_ts_idx ON request_logs(tenant_id, ts DESC);

-- Exposures are counted at the edge and flushed in batches (no write per request).
CREATE TABLE IF NOT EXISTS exposure_counts (
  tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  experiment_id integer NOT NULL,
  variant_id integer NOT NULL,
  variant_key text NOT NULL,
  exposures bigint NOT NULL DEFAULT 0,
  last_seen_at timestamptz,
  PRIMARY KEY (experiment_id, variant_id, variant_key)
);
