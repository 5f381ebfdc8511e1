/**
 * Editors' previews at the edge (docs/providers.md "Previews"): a request carrying a signed
 * preview link (lib/preview/link_token.ts) is verified against the tenant's secret, which
 * arrives sealed in the snapshot every instance reads; a valid one may use the draft switches
 * and the preview credential, and its answer is private and never stored.
 */
import type { EdgeSnapshot } from "../lib/kv/snapshot.ts";
import {
  judgeClaims,
  PREVIEW_REFUSALS,
  previewKey,
  readPreviewToken,
} from "../lib/preview/link_token.ts";
import { openToken } from "../lib/net/credentials.ts";

const keys = new WeakMap<EdgeSnapshot, Promise<CryptoKey | null>>();

/** The snapshot's HMAC key, opened once per snapshot object; null without a secret. */
function keyOf(encryptionKey: string | undefined, snap: EdgeSnapshot): Promise<CryptoKey | null> {
  let k = keys.get(snap);
  if (k === undefined) {
    k = openToken(encryptionKey, snap.preview?.secretEnc ?? null)
      .then((secret) => (secret ? previewKey(secret) : null))
      .catch(() => null);
    keys.set(snap, k);
  }
  return k;
}

/** Null when the link allows `path` on this tenant now, else the 403 message. */
export async function refusePreviewLink(
  encryptionKey: string | undefined,
  snap: EdgeSnapshot,
  token: string,
  path: string,
  nowMs: number,
): Promise<string | null> {
  const key = await keyOf(encryptionKey, snap);
  const claims = key ? await readPreviewToken(key, token) : null;
  if (!claims) return PREVIEW_REFUSALS.invalid;
  const verdict = judgeClaims(claims, snap.tenantId, path, nowMs);
  return verdict === "ok" ? null : PREVIEW_REFUSALS[verdict];
}

/** Per provider, the switch a preview request gets when it names none (drafts, not published). */
const PREVIEW_DEFAULTS: Partial<Record<EdgeSnapshot["cms"], [string, string]>> = {
  sanity: ["perspective", "drafts"],
  storyblok: ["version", "draft"],
};

/**
 * The query a preview request forwards: the visitor's, minus Cachely's own parameters, plus
 * the provider's draft default and, for Prismic, the `io.prismic.preview` cookie's ref.
 */
export function previewQuery(
  snap: EdgeSnapshot,
  raw: string,
  drop: readonly string[],
  cookie: string | null,
): string {
  const params = new URLSearchParams(raw);
  for (const d of drop) params.delete(d);
  const def = PREVIEW_DEFAULTS[snap.cms];
  if (def && !params.has(def[0])) params.append(def[0], def[1]);
  if (snap.cms === "prismic" && !params.has("ref") && cookie) {
    const m = /(?:^|;\s*)io\.prismic\.preview=([^;]*)/.exec(cookie);
    if (m) {
      try {
        params.set("ref", decodeURIComponent(m[1]));
      } catch { /* an undecodable cookie names no ref */ }
    }
  }
  return params.toString();
}
