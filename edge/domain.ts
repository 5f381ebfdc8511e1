/**
 * `GET /~domain` on a tenant's hosts: `{"domain": "<primary verified custom domain>" | null}`,
 * from the snapshot the edge already holds (its `domains` are the active, that is verified,
 * ones, first verified first: the first is the primary). Public (the DNS name the site
 * already serves) and cacheable for five minutes. The SDK asks it once for
 * `customDomain: true` when the environment names no domain (sdk/domain_lookup.ts).
 */
import type { RequestContext } from "./context.ts";
import type { RecordedOutcome } from "./usage_record.ts";
import { edgeError, responseWith } from "./http.ts";

/** The path of the answer (exact: `/~domain/...` is not it). */
export const DOMAIN_PATH = "/~domain";

const CORS: [string, string][] = [
  ["access-control-allow-origin", "*"],
  ["x-content-type-options", "nosniff"],
  ["x-cachely-edge", "1"],
];

/** The tenant's primary verified domain; 405 for a method other than GET, HEAD, OPTIONS. */
export function handleDomain(rc: RequestContext): RecordedOutcome {
  const method = rc.method;
  if (method === "OPTIONS") {
    const headers: [string, string][] = [
      ...CORS,
      ["access-control-allow-methods", "GET, HEAD, OPTIONS"],
      ["access-control-max-age", "86400"],
      ["cache-control", "public, max-age=300"],
    ];
    return { res: responseWith(null, 204, headers), cache: null, bytes: 0 };
  }
  if (method !== "GET" && method !== "HEAD") {
    const res = edgeError(405, "method_not_allowed", "Method not allowed: use GET", {
      allow: "GET, HEAD, OPTIONS",
    });
    return { res, cache: null, bytes: 0 };
  }
  const body = JSON.stringify({ domain: rc.snap.domains[0] ?? null });
  const headers: [string, string][] = [
    ["content-type", "application/json"],
    ["cache-control", "public, max-age=300"],
    ...CORS,
  ];
  const res = responseWith(method === "HEAD" ? null : body, 200, headers);
  return { res, cache: null, bytes: method === "HEAD" ? 0 : body.length };
}
