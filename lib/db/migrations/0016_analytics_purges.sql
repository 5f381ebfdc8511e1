-- Purges by URL, prefix or tag, carried in the tenant's edge snapshot.
CREATE TABLE IF NOT EXISTS cache_purges (
  id bigserial PRIMARY KEY,
  tenant_id integer NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  at_ms bigint NOT NULL,
  urls jsonb NOT NULL DEFAULT '[]',
  prefixes jsonb NOT NULL DEFAULT '[]',
  tags jsonb NOT NULL DEFAULT '[]'
);
CREATE INDEX IF NOT EXISTS cache_purges_tenant ON cache_purges (tenant_id, id);
