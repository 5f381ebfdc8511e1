-- Exact counters per status class and of what reached the origin, per day and per hour.
ALTER TABLE usage_daily ADD COLUMN IF NOT EXISTS status_1xx bigint NOT NULL DEFAULT 0;
ALTER TABLE usage_daily ADD COLUMN IF NOT EXISTS status_2xx bigint NOT NULL DEFAULT 0;
ALTER TABLE usage_daily ADD COLUMN IF NOT EXISTS status_3xx bigint NOT NULL DEFAULT 0;
ALTER TABLE usage_daily ADD COLUMN IF NOT EXISTS status_4xx bigint NOT NULL DEFAULT 0;
ALTER TABLE usage_daily ADD COLUMN IF NOT EXISTS status_5xx bigint NOT NULL DEFAULT 0;
ALTER TABLE usage_daily ADD COLUMN IF NOT EXISTS origin_requests bigint NOT NULL DEFAULT 0;
ALTER TABLE usage_daily ADD COLUMN IF NOT EXISTS origin_bytes bigint NOT NULL DEFAULT 0;

-- The same counters per UTC hour; kept 7 days (the dashboard shows the last 48 hours).
CREATE TABLE IF NOT EXISTS usage_hourly (
  tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  hour timestamptz NOT NULL,
  requests bigint NOT NULL DEFAULT 0,
  bytes bigint NOT NULL DEFAULT 0,
  hits bigint NOT NULL DEFAULT 0,
  misses bigint NOT NULL DEFAULT 0,
  stale bigint NOT NULL DEFAULT 0,
  bypass bigint NOT NULL DEFAULT 0,
  errors bigint NOT NULL DEFAULT 0,
  blocked bigint NOT NULL DEFAULT 0,
  status_1xx bigint NOT NULL DEFAULT 0,
  status_2xx bigint NOT NULL DEFAULT 0,
  status_3xx bigint NOT NULL DEFAULT 0,
  status_4xx bigint NOT NULL DEFAULT 0,
  status_5xx bigint NOT NULL DEFAULT 0,
  origin_requests bigint NOT NULL DEFAULT 0,
  origin_bytes bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, hour)
);
CREATE INDEX IF NOT EXISTS usage_hourly_hour ON usage_hourly (hour);
