-- A merged tag-only purge record (lib/cache/purge_compact.ts) keeps each tag's own time,
-- parallel to `tags`; null when every tag was purged at `at_ms`.
ALTER TABLE cache_purges ADD COLUMN IF NOT EXISTS tag_times jsonb;
