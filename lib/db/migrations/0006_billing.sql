-- Billing: one row per account (the billing account is the user; a tenant's limits follow its owner's plan).
CREATE TABLE IF NOT EXISTS billing_accounts (
  user_id text PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  plan_code text NOT NULL DEFAULT 'free',
  status text NOT NULL DEFAULT 'none',
  stripe_customer_id text UNIQUE,
  stripe_subscription_id text,
  current_period_end timestamptz,
  cancel_at_period_end boolean NOT NULL DEFAULT false,
  admin_override boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now()
);
