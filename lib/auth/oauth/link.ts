/**
 * Which account an OAuth profile signs in to: the account with the same email when the
 * provider says the email is verified. An unverified email signs in nowhere: it must not
 * take over an existing account, nor claim the address for a new one. An existing account
 * nobody verified is claimed for the provider-proven owner first (claim_account.ts), so a
 * squatter who registered the address with a password keeps no way in.
 */
import type { Context } from "hono";
import type { AppEnv } from "../../http/env.ts";
import type { OAuthProviderName } from "../../config.ts";
import { ApiError } from "../../errors.ts";
import { createUser, findUserByEmail } from "../../users/mod.ts";
import { randomToken } from "../../crypto/mod.ts";
import { startSession } from "../login.ts";
import { claimUnverifiedAccount } from "../claim_account.ts";
import { flashOnNextPage } from "../../dashboard/flash.ts";
import { OAUTH_LABELS, type OAuthProfile } from "./profile.ts";

export async function signInOAuthUser(
  c: Context<AppEnv>,
  provider: OAuthProviderName,
  profile: OAuthProfile,
): Promise<void> {
  const s = c.get("services");
  if (!profile.emailVerified) {
    throw new ApiError(
      403,
      "email_unverified",
      `Your ${OAUTH_LABELS[provider]} email is not verified; ` +
        "verify it there or log in with your password",
    );
  }
  // A new account gets an unguessable password; "Forgot your password?" can set a real one.
  const user = await findUserByEmail(s, profile.email) ??
    await createUser(s, profile.email, randomToken(32), { verified: true }).catch(async (e) => {
      const raced = await findUserByEmail(s, profile.email); // two first sign-ins at once
      if (!raced) throw e;
      return raced;
    });
  if (user.blocked) throw new ApiError(403, "user_blocked", "This account is blocked");
  if (!user.emailVerifiedAt) {
    const { claimed, tokensRevoked } = await claimUnverifiedAccount(s, user.id, "oauth");
    if (claimed) {
      const removed = tokensRevoked > 0
        ? `the password and ${tokensRevoked} API token(s) set for it were removed`
        : "the password set for it was removed";
      await flashOnNextPage(c, {
        ok: true,
        message: `${OAUTH_LABELS[provider]} confirmed ${user.email}: this account is yours. ` +
          `Nobody had confirmed the address before, so ${removed}. ` +
          '"Forgot your password?" sets a new password.',
      });
    }
  }
  await startSession(c, s, user.id);
}
