/**
 * The dashboard's own cookies (session, flash, OAuth state). On https they carry the
 * `__Host-` prefix, which a browser accepts only with Secure, Path=/ and no Domain: a page
 * on a sibling host (a tenant's `<slug>.preview.<PROXY_DOMAIN>`) can then neither
 * overwrite nor shadow them ("cookie tossing"), and an unprefixed cookie of the same name
 * is never read. Plain http (local use) cannot have the prefix: the bare name is used.
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";

const HOST_PREFIX = "__Host-";

const secureSite = (publicUrl: string) => new URL(publicUrl).protocol === "https:";

/** The cookie's name as sent: `__Host-<base>` on https, `<base>` on http. */
export function appCookieName(base: string, publicUrl: string): string {
  return secureSite(publicUrl) ? HOST_PREFIX + base : base;
}

function publicUrlOf(c: Context): string {
  return c.get("services").config.publicUrl;
}

/**
 * Sets one of our cookies: HttpOnly, SameSite=Lax, Path=/, no Domain, Secure on https.
 * `maxAgeSeconds` null: a session cookie (gone when the browser session ends).
 */
export function setAppCookie(
  c: Context,
  base: string,
  value: string,
  maxAgeSeconds: number | null,
) {
  const publicUrl = publicUrlOf(c);
  setCookie(c, appCookieName(base, publicUrl), value, {
    httpOnly: true,
    sameSite: "Lax",
    secure: secureSite(publicUrl),
    path: "/",
    ...(maxAgeSeconds === null ? {} : { maxAge: Math.floor(maxAgeSeconds) }),
  });
}

/** Reads one of our cookies by its full name only (never the bare name on https). */
export function readAppCookie(c: Context, base: string): string | undefined {
  return getCookie(c, appCookieName(base, publicUrlOf(c)));
}

export function clearAppCookie(c: Context, base: string) {
  const publicUrl = publicUrlOf(c);
  deleteCookie(c, appCookieName(base, publicUrl), { path: "/", secure: secureSite(publicUrl) });
}
