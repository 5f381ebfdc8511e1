/**
 * Authentication middleware: a session cookie or `Authorization: Bearer <token>`.
 * Cookie-authenticated writes must come from our own origin (CSRF): Hono's csrf()
 * only checks form posts, so JSON writes are checked here by the full Origin
 * (lib/http/origin.ts) or Sec-Fetch-Site.
 */
import type { Context, MiddlewareHandler } from "hono";
import { readAppCookie } from "./cookies.ts";
import type { AppEnv, AuthContext } from "./env.ts";
import { readSession, SESSION_COOKIE } from "../auth/sessions.ts";
import { resolvePersonalToken } from "../auth/tokens.ts";
import { findUserById, isMasterAdmin } from "../users/mod.ts";
import { ApiError, unauthorized } from "../errors.ts";
import { refuseCrossSite } from "./origin.ts";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

export const authenticate: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set("auth", await resolveAuth(c));
  await next();
};

async function resolveAuth(c: Context<AppEnv>): Promise<AuthContext | null> {
  const s = c.get("services");
  const header = c.req.header("authorization");
  if (header?.toLowerCase().startsWith("bearer ")) {
    const pat = await resolvePersonalToken(s, header.slice(7).trim());
    if (!pat) throw unauthorized("Invalid or revoked token");
    const user = await findUserById(s, pat.userId);
    if (!user || user.blocked) throw unauthorized("Invalid or revoked token");
    return { user, via: "token", isAdmin: isMasterAdmin(s, user), scopes: pat.scopes };
  }
  const token = readAppCookie(c, SESSION_COOKIE);
  if (!token) return null;
  const session = await readSession(s.kv, token, s.clock.now());
  if (!session) return null;
  const user = await findUserById(s, session.userId);
  if (!user || user.blocked) return null;
  if (!SAFE.has(c.req.method)) refuseCrossSite(c, s.config.publicUrl);
  return { user, via: "session", isAdmin: isMasterAdmin(s, user), sessionToken: token };
}

export function requireAuth(c: Context<AppEnv>): AuthContext {
  const auth = c.get("auth");
  if (!auth) throw unauthorized();
  return auth;
}

export function requireMasterAdmin(c: Context<AppEnv>): AuthContext {
  const auth = requireAuth(c);
  if (!auth.isAdmin) throw new ApiError(403, "forbidden", "Master admin only");
  return auth;
}
