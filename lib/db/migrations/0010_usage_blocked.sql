-- Bots refused on the asset path are counted apart, never as requests or bandwidth.
ALTER TABLE usage_daily ADD COLUMN IF NOT EXISTS blocked bigint NOT NULL DEFAULT 0;
