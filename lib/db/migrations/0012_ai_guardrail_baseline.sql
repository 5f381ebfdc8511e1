-- Counts each variant had when a stopped experiment was restarted: guardrails judge
-- only what came after, or the old failures would stop it again at once.
ALTER TABLE experiments ADD COLUMN IF NOT EXISTS guardrail_baseline jsonb;
