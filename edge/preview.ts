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
import { definitionOf } from "../sdk/providers.ts";

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

/**
 * The query a preview request forwards: the visitor's, minus Cachely's own parameters, plus
 * the kind's draft default (`preview`, sdk/providers/<kind>.ts) and the ref its preview
 * cookie names (Prismic's `io.prismic.preview`).
 */
export function previewQuery(
  snap: EdgeSnapshot,
  raw: string,
  drop: readonly string[],
  cookie: string | null,
): string {
  const params = new URLSearchParams(raw);
  for (const d of drop) params.delete(d);
  const rules = definitionOf(snap.cms).preview;
  const def = rules?.defaultSwitch;
  if (def && !params.has(def[0])) params.append(def[0], def[1]);
  const ref = cookie && rules?.cookieRef?.(cookie);
  if (ref && !params.has(ref[0])) params.set(ref[0], ref[1]);
  return params.toString();
}
