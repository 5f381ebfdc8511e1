-- Email verification (docs/decisions.md "Email verification"). NULL means unverified.
-- Accounts made before this change are left unverified on purpose: nothing recorded
-- proves their owners read mail at that address (an account made by OAuth sign-in cannot
-- be told apart from a squatting password sign-up), so OAuth linking treats them as
-- unverified until the owner follows a verification or password-reset link.
ALTER TABLE users ADD COLUMN IF NOT EXISTS email_verified_at timestamptz;
