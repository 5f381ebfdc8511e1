-- Exact requests per path per tenant per UTC day (the Usage page's "Top paths"), bounded to the
-- 1,000 busiest paths of a tenant-day (lib/usage/pg_paths.ts): a path that enters a full day
-- starts at that day's smallest count (Space-Saving), and `overcount` keeps how much of its
-- count it inherited, so a row with overcount 0 is exact. Kept 62 days.
CREATE TABLE IF NOT EXISTS path_counts (
  tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  day date NOT NULL,
  path text NOT NULL,
  requests bigint NOT NULL DEFAULT 0,
  errors bigint NOT NULL DEFAULT 0,
  bytes bigint NOT NULL DEFAULT 0,
  overcount bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, day, path)
);
CREATE INDEX IF NOT EXISTS path_counts_day_idx ON path_counts (day);
