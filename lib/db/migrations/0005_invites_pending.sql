-- One pending invite per (tenant, email): concurrent invites for one address refresh the same
-- row instead of creating two live tokens (lib/members/invites.ts).
CREATE UNIQUE INDEX IF NOT EXISTS invites_pending_email_idx ON invites(tenant_id, email)
  WHERE revoked_at IS NULL AND accepted_at IS NULL;
