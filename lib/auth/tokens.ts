/** Personal access tokens: shown once at creation, stored as SHA-256, accepted as Bearer. */
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Services } from "../services.ts";
import { apiTokens } from "../db/schema/mod.ts";
import { randomToken, sha256Hex } from "../crypto/mod.ts";
import { notFound } from "../errors.ts";
import type { CreatedToken, PersonalToken } from "./tokens_schema.ts";

export const PAT_PREFIX = "cly_pat_";

export async function createPersonalToken(
  s: Services,
  userId: string,
  name: string,
): Promise<CreatedToken> {
  const token = randomToken(32, PAT_PREFIX);
  const [row] = await s.db.insert(apiTokens).values({
    userId,
    name,
    tokenHash: await sha256Hex(token),
  }).returning();
  return { id: row.id, name: row.name, token, createdAt: row.createdAt.toISOString() };
}

export async function listPersonalTokens(
  s: Services,
  userId: string,
): Promise<PersonalToken[]> {
  const rows = await s.db.select().from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .orderBy(desc(apiTokens.id));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    createdAt: r.createdAt.toISOString(),
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
  }));
}

export async function revokePersonalToken(s: Services, userId: string, id: number) {
  const rows = await s.db.update(apiTokens).set({ revokedAt: new Date(s.clock.now()) })
    .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id });
  if (rows.length === 0) throw notFound("Token");
}

/** The user id a live token belongs to, or null. */
export async function resolvePersonalToken(s: Services, token: string): Promise<string | null> {
  if (!token.startsWith(PAT_PREFIX) || token.length > 200) return null;
  const hash = await sha256Hex(token);
  const rows = await s.db.select({ id: apiTokens.id, userId: apiTokens.userId }).from(apiTokens)
    .where(and(eq(apiTokens.tokenHash, hash), isNull(apiTokens.revokedAt)));
  if (!rows[0]) return null;
  // Best effort, off the request path.
  s.db.update(apiTokens).set({ lastUsedAt: new Date(s.clock.now()) })
    .where(eq(apiTokens.id, rows[0].id)).catch(() => {});
  return rows[0].userId;
}
