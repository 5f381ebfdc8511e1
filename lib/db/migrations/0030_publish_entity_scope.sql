-- Cache-refresh webhooks choose what a delivery purges: "all" (bump the API version, the
-- SPEC default) or "entities" (purge the answers tagged with the announced entities).
ALTER TABLE cache_refresh_webhooks ADD COLUMN IF NOT EXISTS scope text NOT NULL DEFAULT 'all';
-- What an "entities" delivery purged (counts, first ids and types) or why it fell back.
ALTER TABLE webhook_events ADD COLUMN IF NOT EXISTS purged jsonb;
-- What an entity purge's webhook announced (action, ids, types, revision per id): the edge
-- stores no refetched answer that still shows the entity as it was before (read your publish).
ALTER TABLE cache_purges ADD COLUMN IF NOT EXISTS announced jsonb;
