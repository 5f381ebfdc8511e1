/** Personal access tokens: shown once at creation, stored as SHA-256, accepted as Bearer. */
import { and, desc, eq, gt, isNull, or } from "drizzle-orm";
import type { Services } from "../services.ts";
import { apiTokens } from "../db/schema/mod.ts";
import { randomToken, sha256Hex } from "../crypto/mod.ts";
import { notFound } from "../errors.ts";
import type { CreatedToken, PersonalToken } from "./tokens_schema.ts";
import type { TokenScope } from "./token_scopes.ts";

export const PAT_PREFIX = "cly_pat_";

export async function createPersonalToken(
  s: Services,
  userId: string,
  spec: { name: string; scopes: TokenScope[]; expiresAt: Date | null },
): Promise<CreatedToken> {
  const token = randomToken(32, PAT_PREFIX);
  const [row] = await s.db.insert(apiTokens).values({
    userId,
    name: spec.name,
    scopes: spec.scopes,
    expiresAt: spec.expiresAt,
    tokenHash: await sha256Hex(token),
  }).returning();
  return { ...view(row), token };
}

function view(r: typeof apiTokens.$inferSelect): PersonalToken {
  return {
    id: r.id,
    name: r.name,
    scopes: r.scopes,
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt?.toISOString() ?? null,
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
  };
}

export async function listPersonalTokens(
  s: Services,
  userId: string,
): Promise<PersonalToken[]> {
  const rows = await s.db.select().from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .orderBy(desc(apiTokens.id));
  return rows.map(view);
}

export async function revokePersonalToken(s: Services, userId: string, id: number) {
  const rows = await s.db.update(apiTokens).set({ revokedAt: new Date(s.clock.now()) })
    .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id });
  if (rows.length === 0) throw notFound("Token");
}

/** The user and scopes of a live (not revoked, not expired) token, or null. */
export async function resolvePersonalToken(
  s: Services,
  token: string,
): Promise<{ userId: string; scopes: TokenScope[] } | null> {
  if (!token.startsWith(PAT_PREFIX) || token.length > 200) return null;
  const hash = await sha256Hex(token);
  const now = new Date(s.clock.now());
  const rows = await s.db.select({
    id: apiTokens.id,
    userId: apiTokens.userId,
    scopes: apiTokens.scopes,
  }).from(apiTokens)
    .where(and(
      eq(apiTokens.tokenHash, hash),
      isNull(apiTokens.revokedAt),
      or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, now)),
    ));
  if (!rows[0]) return null;
  // Best effort, off the request path.
  s.db.update(apiTokens).set({ lastUsedAt: now })
    .where(eq(apiTokens.id, rows[0].id)).catch(() => {});
  return { userId: rows[0].userId, scopes: rows[0].scopes };
}
