-- Latency sketches beside the usage counters, per day and per hour. Each array
-- holds counts per lib/usage/latency_sketch.ts bucket (0: under 1 ms, then four per power
-- of two up to 65.5 s); flushes add element-wise, quantiles are read off the sums.
-- edge: request in to response headers out; origin: upstream time of requests that reached it.
ALTER TABLE usage_daily ADD COLUMN IF NOT EXISTS edge_latency bigint[] NOT NULL DEFAULT '{}';
ALTER TABLE usage_daily ADD COLUMN IF NOT EXISTS origin_latency bigint[] NOT NULL DEFAULT '{}';
ALTER TABLE usage_hourly ADD COLUMN IF NOT EXISTS edge_latency bigint[] NOT NULL DEFAULT '{}';
ALTER TABLE usage_hourly ADD COLUMN IF NOT EXISTS origin_latency bigint[] NOT NULL DEFAULT '{}';
