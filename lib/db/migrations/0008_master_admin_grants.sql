-- Master admins granted in the database (`deno task cli admin grant <email>`), in
-- addition to the ADMIN_EMAILS list read from the environment.
ALTER TABLE users ADD COLUMN IF NOT EXISTS master_admin boolean NOT NULL DEFAULT false;
