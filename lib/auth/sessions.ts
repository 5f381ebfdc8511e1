/**
 * Server-side sessions in Deno KV. The cookie carries a random token; KV keeps
 * only its SHA-256, with the user and expiry. A per-user index lets blocking a
 * user end every session at once.
 */
import { randomToken, sha256Hex } from "../crypto/mod.ts";
import { kvKeys } from "../kv/keys.ts";
import { kvCommit, kvRetry } from "../kv/retry.ts";

export type Session = { userId: string; expiresAt: number; createdAt: number };
export const SESSION_COOKIE = "cachely_session";

export async function createSession(
  kv: Deno.Kv,
  userId: string,
  ttlMs: number,
  now: number,
): Promise<{ token: string; expiresAt: number }> {
  const token = randomToken(32);
  const hash = await sha256Hex(token);
  const session: Session = { userId, expiresAt: now + ttlMs, createdAt: now };
  await kvCommit(() =>
    kv.atomic()
      .set(kvKeys.session(hash), session, { expireIn: ttlMs })
      .set(kvKeys.userSession(userId, hash), session.expiresAt, { expireIn: ttlMs })
  );
  return { token, expiresAt: session.expiresAt };
}

/** The live session for a token, or null. Expiry is checked here: local KV expires lazily. */
export async function readSession(kv: Deno.Kv, token: string, now: number) {
  if (!token || token.length > 200) return null;
  const hash = await sha256Hex(token);
  const got = await kvRetry(() => kv.get<Session>(kvKeys.session(hash)));
  if (!got.value || got.value.expiresAt <= now) return null;
  return got.value;
}

export async function deleteSession(kv: Deno.Kv, token: string): Promise<void> {
  const hash = await sha256Hex(token);
  const got = await kvRetry(() => kv.get<Session>(kvKeys.session(hash)));
  await kvCommit(() => {
    const op = kv.atomic().delete(kvKeys.session(hash));
    if (got.value) op.delete(kvKeys.userSession(got.value.userId, hash));
    return op;
  });
}

/**
 * Ends every session of a user (blocking), or every one but `keepToken`'s (a
 * password change keeps the session that made it). Returns how many ended.
 */
export async function deleteUserSessions(
  kv: Deno.Kv,
  userId: string,
  keepToken?: string,
): Promise<number> {
  const keep = keepToken ? await sha256Hex(keepToken) : null;
  let n = 0;
  for await (const e of kv.list({ prefix: kvKeys.userSessions(userId) })) {
    const hash = e.key[2] as string;
    if (hash === keep) continue;
    await kvCommit(() => kv.atomic().delete(kvKeys.session(hash)).delete(e.key));
    n++;
  }
  return n;
}
