-- Personal access token scopes and expiry (docs/decisions.md "Auth and sessions").
-- Tokens made before this change keep every scope (they could do everything) and never expire.
ALTER TABLE api_tokens ADD COLUMN IF NOT EXISTS scopes text[] NOT NULL DEFAULT '{read,write,admin}';
ALTER TABLE api_tokens ADD COLUMN IF NOT EXISTS expires_at timestamptz;
