/**
 * Signed preview links (docs/providers.md "Previews"): `cpl1.<claims>.<signature>`, the
 * claims base64url JSON `{ t: tenant id, s: path scope, e: expiry (unix seconds) }`, the
 * signature HMAC-SHA256 over `cpl1.<claims>` under the tenant's preview secret. Pure Web
 * Crypto: the management app signs, the edge verifies (the secret reaches it sealed in the
 * tenant's snapshot, so every instance verifies alike). A link names its tenant and is
 * signed with that tenant's secret: it is worthless on another.
 */
import { fromBase64Url, toBase64Url } from "../crypto/mod.ts";

/** The query parameter a preview link carries its token in (never forwarded upstream). */
export { PREVIEW_TOKEN_PARAM } from "../../sdk/preview.ts";
/** A link's default and longest lifetimes. */
export const PREVIEW_LINK_DEFAULT_TTL_SECONDS = 2 * 60 * 60;
export const PREVIEW_LINK_MAX_TTL_SECONDS = 7 * 24 * 60 * 60;

const PREFIX = "cpl1";
const enc = new TextEncoder();

type PreviewClaims = { t: number; s: string; e: number };

/** The HMAC key of a tenant's preview secret. */
export function previewKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    "raw",
    enc.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
}

export async function signPreviewToken(key: CryptoKey, claims: PreviewClaims): Promise<string> {
  const body = `${PREFIX}.${toBase64Url(enc.encode(JSON.stringify(claims)))}`;
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(body)));
  return `${body}.${toBase64Url(sig)}`;
}

/** The claims of a token whose signature verifies (constant time), else null. */
export async function readPreviewToken(
  key: CryptoKey,
  token: string,
): Promise<PreviewClaims | null> {
  const parts = token.split(".");
  if (parts.length !== 3 || parts[0] !== PREFIX || token.length > 2048) return null;
  try {
    const sig = fromBase64Url(parts[2]);
    const body = enc.encode(`${parts[0]}.${parts[1]}`);
    if (!(await crypto.subtle.verify("HMAC", key, sig as Uint8Array<ArrayBuffer>, body))) {
      return null;
    }
    const c = JSON.parse(new TextDecoder().decode(fromBase64Url(parts[1])));
    if (typeof c?.t !== "number" || typeof c.s !== "string" || typeof c.e !== "number") return null;
    return { t: c.t, s: c.s, e: c.e };
  } catch {
    return null;
  }
}

/** What a verified link allows here: everything under its scope until it expires. */
export function judgeClaims(
  c: PreviewClaims,
  tenantId: number,
  path: string,
  nowMs: number,
): "ok" | "invalid" | "expired" | "scope" {
  if (c.t !== tenantId) return "invalid";
  if (nowMs >= c.e * 1000) return "expired";
  if (!(path === c.s || path.startsWith(c.s.endsWith("/") ? c.s : `${c.s}/`))) return "scope";
  return "ok";
}

/** The scope a link for `path` grants: an API path itself; a site page every API read. */
export function scopeOf(path: string): string {
  return path.startsWith("/~api/") ? path : "/~api/";
}

/** The 403 message for each refusal (the edge answers it; the SDK shows it). */
export const PREVIEW_REFUSALS = {
  invalid: "Preview link is not valid for this site: ask for a new one",
  expired: "Preview link expired: ask for a new one",
  scope: "Preview link does not cover this path: ask for one that does",
} as const;
