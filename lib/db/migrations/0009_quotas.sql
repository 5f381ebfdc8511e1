-- Quotas: when an account's plan last changed (custom-domain grace after a
-- downgrade), and the metered-overage reports sent to the payment provider, one per account
-- per UTC day, so a retried report reuses its quantities and idempotency key.
ALTER TABLE billing_accounts ADD COLUMN IF NOT EXISTS plan_changed_at timestamptz;

CREATE TABLE IF NOT EXISTS overage_reports (
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  day date NOT NULL,
  period text NOT NULL,
  requests bigint NOT NULL,
  bytes bigint NOT NULL,
  amount_usd double precision NOT NULL,
  status text NOT NULL DEFAULT 'pending',
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  next_attempt_at timestamptz,
  reported_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, day)
);
CREATE INDEX IF NOT EXISTS overage_reports_period ON overage_reports (user_id, period);
