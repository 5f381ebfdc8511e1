/**
 * Browsers an account has logged in from ("device cookies"): a guesser can keep an account's
 * budget spent (account_throttle.ts) by taking each free slot the moment it opens, which would
 * lock its owner out after all. So a successful password log-in leaves a random token in a
 * cookie, remembered in KV for that email (hashed, 90 days), and a log-in presenting it for the
 * same email skips the account budget. It still counts against the client's window and the
 * (email, client) throttle, so a stolen cookie buys a guesser no more than one client's rate.
 */
import type { Context } from "hono";
import type { AppEnv } from "../http/env.ts";
import { readAppCookie, setAppCookie } from "../http/cookies.ts";
import { randomToken, sha256Hex } from "../crypto/mod.ts";
import { kvRetry } from "../kv/retry.ts";

const DEVICE_COOKIE = "cachely_device";
const DEVICE_TTL_MS = 90 * 24 * 3_600_000;

const normal = (email: string) => email.trim().toLowerCase();
const key = async (token: string) => ["login_device", await sha256Hex(token)] as const;

/** Did this browser log in to `email` before (within DEVICE_TTL_MS)? */
export async function isKnownDevice(c: Context<AppEnv>, email: string): Promise<boolean> {
  const token = readAppCookie(c, DEVICE_COOKIE);
  if (!token || token.length > 100) return false;
  const kv = c.get("services").kv;
  const k = await key(token);
  const entry = await kvRetry(() => kv.get<string>(k));
  return entry.value === normal(email);
}

/** After a successful log-in: this browser is known to `email` from now on. */
export async function rememberDevice(c: Context<AppEnv>, email: string): Promise<void> {
  const kv = c.get("services").kv;
  const token = randomToken(24);
  const k = await key(token);
  await kvRetry(() => kv.set(k, normal(email), { expireIn: DEVICE_TTL_MS }));
  setAppCookie(c, DEVICE_COOKIE, token, DEVICE_TTL_MS / 1000);
}
