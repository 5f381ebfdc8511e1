/**
 * Server-side fetch of a tenant's API for regenerate, mirroring the edge: the
 * configured origin joined with a checked path, credentials injected per auth mode
 * (docs/decisions.md "Tenants"), then the guarded fetch (lib/net/guarded_fetch.ts): the
 * address checked and pinned, no redirects followed, a timeout and a body bound.
 */
import type { Services } from "../services.ts";
import type { EdgeSnapshot } from "../kv/snapshot.ts";
import { decryptSecret } from "../crypto/mod.ts";
import { badRequest } from "../errors.ts";
import { BadPathError, joinUpstream, LEAVES_UPSTREAM } from "../net/url_join.ts";
import { guardedDeps, type GuardedError, guardedFetch } from "../net/guarded_fetch.ts";
// The edge's credential injection and token scrubbing: pure helpers, the same rules here.
import { credentialForms, injectCredential, scrubToken } from "../net/credentials.ts";

/**
 * `origin` + `apiPath` (which may carry a query), joined by the edge's rule (lib/net/url_join.ts):
 * the result never leaves the origin's base path.
 */
export function joinApiPath(origin: string, apiPath: string): URL {
  const q = apiPath.indexOf("?");
  const [path, query] = q === -1 ? [apiPath, ""] : [apiPath.slice(0, q), apiPath.slice(q + 1)];
  try {
    return joinUpstream(origin, path, query);
  } catch (e) {
    if (!(e instanceof BadPathError)) throw e;
    throw badRequest(
      e.message === LEAVES_UPSTREAM
        ? "Invalid apiPath: leaves the API origin"
        : "Invalid apiPath: not a plain path",
    );
  }
}

export type TenantApiResponse =
  | { kind: "ok"; status: number; contentType: string | null; text: string }
  | {
    kind: "error";
    code: "upstream_refused" | "upstream_error" | "upstream_timeout";
    message: string;
  };

export async function fetchTenantApi(
  s: Services,
  snap: EdgeSnapshot,
  url: URL,
): Promise<TenantApiResponse> {
  const headers = new Headers({ accept: "application/json" });
  let token: string | null = null;
  if (snap.api.tokenEnc && s.config.encryptionKey) {
    token = await decryptSecret(s.config.encryptionKey, snap.api.tokenEnc).catch(() => null);
    if (token === null) {
      return { kind: "error", code: "upstream_error", message: "Upstream credentials unusable" };
    }
    injectCredential(snap.api.authMode, snap.api.authParam, token, url, headers);
  }
  // Checked, pinned, no redirect followed, and an over-large body refused at the bound
  // (counted while reading, never held whole).
  const res = await guardedFetch(guardedDeps(s, s.config.allowPrivateUpstreams), {
    url,
    headers: [...headers],
    timeoutMs: s.config.upstreamTimeoutMs,
    maxBytes: s.config.edgeCacheMaxObjectBytes,
    over: "refuse",
  });
  if (!res.ok) return { kind: "error", ...FAILURES[res.error] };
  const text = new TextDecoder().decode(res.body);
  return {
    kind: "ok",
    status: res.status,
    contentType: res.headers.get("content-type"),
    // Some APIs echo request URLs (with an access_token); regenerate shows bodies to editors.
    text: token ? scrubToken(text, credentialForms(snap.api.authMode, token)) : text,
  };
}

const FAILURES: Record<
  GuardedError,
  { code: "upstream_refused" | "upstream_error" | "upstream_timeout"; message: string }
> = {
  unsafe_url: { code: "upstream_refused", message: "Upstream refused" },
  timeout: { code: "upstream_timeout", message: "Upstream timed out" },
  too_large: { code: "upstream_error", message: "Upstream body too large" },
  fetch_failed: { code: "upstream_error", message: "Upstream unreachable" },
  // not followed here (maxRedirects 0): listed for completeness
  too_many_redirects: { code: "upstream_error", message: "Upstream redirected" },
  bad_redirect: { code: "upstream_error", message: "Upstream redirected" },
};
