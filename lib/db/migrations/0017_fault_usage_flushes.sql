-- Every usage flush claims an idempotency key (instance, sequence) in its own
-- transaction. A flush whose COMMIT went unanswered is settled later by claiming its key
-- as not counted: the row says whether that flush's deltas are in the totals.
CREATE TABLE IF NOT EXISTS usage_flushes (
  instance_id text NOT NULL,
  seq bigint NOT NULL,
  counted boolean NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (instance_id, seq)
);
CREATE INDEX IF NOT EXISTS usage_flushes_at ON usage_flushes (at);
