-- A merged tag-only purge record (lib/cache/purge_compact.ts) keeps the merged entity purges'
-- announcements, each with its own time; null on other records.
ALTER TABLE cache_purges ADD COLUMN IF NOT EXISTS announcements jsonb;
