/**
 * Form results for browsers without JavaScript: the form bridge stores the outcome of a
 * post under a random id (KV, two minutes, read once) and redirects; the next page shows it.
 */
import type { Context } from "hono";
import { setAppCookie } from "../http/cookies.ts";
import type { AppEnv } from "../http/env.ts";
import { kvKeys } from "../kv/keys.ts";
import { randomToken } from "../crypto/mod.ts";
import { kvRetry } from "../kv/retry.ts";

/** What a form post produced, as the page and the enhanced form both show it. */
export type FormOutcome = {
  ok: boolean;
  message: string;
  /** A value shown once (webhook URL, invite link, token), with a copy button. */
  reveal?: { label: string; value: string };
  /** Field path -> why the server refused it. */
  fields?: Record<string, string>;
  /** Where to go about it: a refusal naming a plan links to the plan page. */
  link?: { href: string; label: string };
};

const TTL_MS = 120_000;

/** Cookie naming the stored outcome; the next page rendered (routes/pages/render.tsx) shows it. */
export const FLASH_COOKIE = "cly_flash";

/** Shows `outcome` once on the page the response redirects to (a no-JS form, a sign-in). */
export async function flashOnNextPage(c: Context<AppEnv>, outcome: FormOutcome): Promise<void> {
  const s = c.get("services");
  const id = await saveFlash(s.kv, outcome, s.clock.now());
  setAppCookie(c, FLASH_COOKIE, id, TTL_MS / 1000);
}

export async function saveFlash(kv: Deno.Kv, outcome: FormOutcome, now: number): Promise<string> {
  const id = randomToken(18);
  await kvRetry(() =>
    kv.set(kvKeys.flash(id), { outcome, expiresAt: now + TTL_MS }, { expireIn: TTL_MS })
  );
  return id;
}

/** Reads and deletes a stored outcome; expired entries read as none (local KV expires lazily). */
export async function takeFlash(kv: Deno.Kv, id: string, now: number): Promise<FormOutcome | null> {
  if (!/^[A-Za-z0-9_-]{10,64}$/.test(id)) return null;
  const entry = await kvRetry(() =>
    kv.get<{ outcome: FormOutcome; expiresAt: number }>(kvKeys.flash(id))
  );
  if (!entry.value) return null;
  await kvRetry(() => kv.delete(kvKeys.flash(id)));
  return entry.value.expiresAt > now ? entry.value.outcome : null;
}
