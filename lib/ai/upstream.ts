/**
 * Server-side fetch of a tenant's API for regenerate, mirroring the edge: the
 * configured origin joined with a checked path, credentials injected per auth mode
 * (docs/decisions.md "Tenants"), the address re-checked against SSRF, no redirects
 * followed, a timeout and a body bound.
 */
import type { Services } from "../services.ts";
import type { EdgeSnapshot } from "../kv/snapshot.ts";
import { decryptSecret } from "../crypto/mod.ts";
import { assertPublicHost, checkUrlShape, UnsafeUrlError } from "../net/ssrf.ts";
import { badRequest } from "../errors.ts";
import { readBounded } from "../net/bounded_body.ts";
// The edge's credential injection and token scrubbing: pure helpers, the same rules here.
import { credentialForms, injectCredential } from "../../edge/credentials.ts";
import { scrubToken } from "../../edge/api_proxy.ts";

// Dot segments, encoded separators or controls, backslashes, empty segments: refused, not normalised.
// deno-lint-ignore no-control-regex -- matching control characters is the point
const BAD_PATH = /[\\\x00-\x20\x7f]|%(?:2e|2f|5c|[01][0-9a-f]|7f)|\/\/|\/\.\.?(?:\/|\?|$)/i;

/** `origin` + `apiPath` (which may carry a query); the result never leaves the origin's base path. */
export function joinApiPath(origin: string, apiPath: string): URL {
  const [path] = apiPath.split("?");
  if (BAD_PATH.test(path)) throw badRequest("Invalid apiPath: not a plain path");
  const base = new URL(origin);
  const basePath = base.pathname.replace(/\/+$/, "");
  const url = new URL(base.origin + basePath + apiPath);
  if (url.origin !== base.origin || !url.pathname.startsWith(basePath + "/")) {
    throw badRequest("Invalid apiPath: leaves the API origin");
  }
  return url;
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
  try {
    if (!s.config.allowPrivateUpstreams) {
      checkUrlShape(url, { allowPrivate: false, requireHttps: false });
      await assertPublicHost(url.hostname, (h, t) => s.resolveDns(h, t), false);
    }
  } catch (e) {
    if (e instanceof UnsafeUrlError) {
      return { kind: "error", code: "upstream_refused", message: "Upstream refused" };
    }
    throw e;
  }
  const headers = new Headers({ accept: "application/json" });
  let token: string | null = null;
  if (snap.api.tokenEnc && s.config.encryptionKey) {
    token = await decryptSecret(s.config.encryptionKey, snap.api.tokenEnc).catch(() => null);
    if (token === null) {
      return { kind: "error", code: "upstream_error", message: "Upstream credentials unusable" };
    }
    injectCredential(snap.api.authMode, snap.api.authParam, token, url, headers);
  }
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), s.config.upstreamTimeoutMs);
  try {
    const res = await s.fetch(url, { headers, redirect: "manual", signal: ctrl.signal });
    // Counted while reading: an over-large body is dropped at the bound, never held whole.
    const read = await readBounded(res.body, s.config.edgeCacheMaxObjectBytes, {
      over: "refuse",
    });
    if (read.tooLarge) {
      return { kind: "error", code: "upstream_error", message: "Upstream body too large" };
    }
    const buf = read.bytes;
    return {
      kind: "ok",
      status: res.status,
      contentType: res.headers.get("content-type"),
      // Some APIs echo request URLs (with an access_token); regenerate shows bodies to editors.
      text: token
        ? scrubToken(new TextDecoder().decode(buf), credentialForms(snap.api.authMode, token))
        : new TextDecoder().decode(buf),
    };
  } catch {
    return ctrl.signal.aborted
      ? { kind: "error", code: "upstream_timeout", message: "Upstream timed out" }
      : { kind: "error", code: "upstream_error", message: "Upstream unreachable" };
  } finally {
    clearTimeout(timer);
  }
}
