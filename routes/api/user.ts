/** /api/user: personal access tokens, profile, password change. */
import { access, Routes } from "../../lib/http/route.ts";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { str } from "../../lib/base/text.ts";
import { intParam } from "../../lib/http/validate.ts";
import {
  createPersonalToken,
  listPersonalTokens,
  revokePersonalToken,
} from "../../lib/auth/tokens.ts";
import { users } from "../../lib/db/schema/mod.ts";
import { publicUser } from "../../lib/users/mod.ts";
import { hashPassword, passwordPolicyViolation, verifyPassword } from "../../lib/auth/password.ts";
import { ApiError, badRequest } from "../../lib/errors.ts";
import { deleteUserSessions } from "../../lib/auth/sessions.ts";
import {
  createdTokenSchema,
  tokenScopeSchema,
  tokensListSchema,
} from "../../lib/auth/tokens_schema.ts";
import { TOKEN_SCOPES } from "../../lib/auth/token_scopes.ts";
import { replacePassword } from "../../lib/auth/password_change.ts";
import { confirmTakeoverReview, takeoverReview } from "../../lib/auth/takeover_review.ts";
import { publicUserSchema } from "../../lib/users/public_user_schema.ts";
import { isoTime, okSchema } from "../../lib/base/shapes.ts";

const takeoverReviewAnswerSchema = z.strictObject({
  review: z.strictObject({
    claimedAt: isoTime,
    members: z.array(z.strictObject({
      tenant: str(),
      userId: str(),
      email: str(),
      role: str(),
    })),
    invites: z.array(z.strictObject({ tenant: str(), email: str(), role: str() })),
  }).nullable(),
});
const takeoverConfirmedSchema = z.strictObject({
  removedMembers: z.number().int().nonnegative(),
  revokedInvites: z.number().int().nonnegative(),
});

const profileUpdatedSchema = z.strictObject({ ok: z.literal(true), user: publicUserSchema });

/** How far ahead a token's expiry may be set (a year); none: it lasts until revoked. */
const MAX_TOKEN_LIFETIME_MS = 366 * 24 * 3_600_000;
const tokenBody = z.object({
  name: str().trim().min(1).max(100),
  scopes: z.array(tokenScopeSchema).min(1).max(3).default([...TOKEN_SCOPES]),
  // A day (its start, UTC) or an exact time; null or absent: until revoked.
  expiresAt: z.union([z.iso.datetime({ offset: true }), z.iso.date()]).nullable().optional(),
}).strict();
const profileSchema = z.object({ name: str().trim().min(1).max(120).nullable() }).partial()
  .strict();
const passwordSchema = z.object({
  currentPassword: str().min(1).max(200),
  newPassword: str().min(1).max(200),
}).strict();

// Long: the route table of /user: 7 declarations (API tokens, takeover review, profile, password
// change), each its access, schemas and summary beside a short handler; one block per route, found
// by its path.
export function userRoutes(): Routes {
  const app = new Routes("/user");

  app.post("/tokens", {
    access: access.session,
    summary:
      "Creates a personal access token (scopes read, write, admin; optional expiry), shown once",
    body: tokenBody,
    ok: 201,
    response: createdTokenSchema,
    tokenScope: "admin",
  }, async (c, { auth, body }) => {
    const s = c.get("services");
    let expiresAt: Date | null = null;
    if (body.expiresAt) {
      expiresAt = new Date(body.expiresAt);
      const ahead = expiresAt.getTime() - s.clock.now();
      if (ahead <= 0 || ahead > MAX_TOKEN_LIFETIME_MS) {
        throw badRequest("Invalid expiresAt: must be in the future and at most a year ahead");
      }
    }
    const scopes = TOKEN_SCOPES.filter((t) => body.scopes.includes(t));
    return c.json(
      await createPersonalToken(s, auth.user.id, { name: body.name, scopes, expiresAt }),
      201,
    );
  });

  app.get("/tokens", {
    access: access.session,
    summary: "Lists the caller's live personal access tokens (never the token itself)",
    response: tokensListSchema,
  }, async (c, { auth }) => {
    return c.json({ tokens: await listPersonalTokens(c.get("services"), auth.user.id) });
  });

  app.delete(
    "/tokens/:id",
    {
      access: access.session,
      summary: "Revokes one of the caller's personal access tokens",
      response: okSchema,
      errors: [404],
      tokenScope: "admin",
    },
    async (c, { auth }) => {
      await revokePersonalToken(c.get("services"), auth.user.id, intParam(c, "id"));
      return c.json({ ok: true });
    },
  );

  app.get("/takeover-review", {
    access: access.session,
    summary:
      "After taking over a squatted account: the members and invites the previous holder added",
    response: takeoverReviewAnswerSchema,
  }, async (c, { auth }) => {
    return c.json({ review: await takeoverReview(c.get("services"), auth.user.id) });
  });

  app.post("/takeover-review/confirm", {
    access: access.session,
    summary: "Removes the members and revokes the invites the takeover review lists",
    tokenScope: "admin",
    response: takeoverConfirmedSchema,
  }, async (c, { auth }) => {
    return c.json(await confirmTakeoverReview(c.get("services"), auth.user.id));
  });

  app.patch(
    "/profile",
    {
      access: access.session,
      summary: "Changes the caller's display name",
      body: profileSchema,
      tokenScope: "admin",
      response: profileUpdatedSchema,
    },
    async (c, { auth, body }) => {
      const s = c.get("services");
      const [u] = await s.db.update(users).set({ ...body, updatedAt: new Date(s.clock.now()) })
        .where(eq(users.id, auth.user.id)).returning();
      return c.json({ ok: true, user: publicUser(s, u) });
    },
  );

  app.post("/change-password", {
    access: access.session,
    summary:
      "Changes the caller's password, ends their other sessions and revokes their access tokens",
    response: okSchema,
    errors: [403],
    tokenScope: "admin",
    body: passwordSchema,
  }, async (c, { auth, body }) => {
    const s = c.get("services");
    if (!(await verifyPassword(body.currentPassword, auth.user.passwordHash))) {
      throw new ApiError(403, "wrong_password", "Current password is incorrect");
    }
    const problem = passwordPolicyViolation(body.newPassword, auth.user.email);
    if (problem) throw new ApiError(403, "password_policy", `Password policy: ${problem}`);
    await replacePassword(s, auth.user.id, await hashPassword(body.newPassword));
    // Whoever held the old password may hold a session too: end all but the caller's.
    await deleteUserSessions(s.kv, auth.user.id, auth.sessionToken);
    return c.json({ ok: true });
  });

  return app;
}
