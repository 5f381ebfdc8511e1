/**
 * The one fetch of a user-supplied URL: the website implementation check
 * (lib/checks/website_check.ts), the Cachely probes (lib/checks/probe.ts) and the AI
 * upstream fetch (lib/ai/upstream.ts) come through here. The edge, whose hot path keeps its
 * own verdict cache (edge/upstream.ts), uses the same SSRF check (lib/net/ssrf.ts
 * checkedAddress) and the same clients (lib/net/upstream_types.ts).
 *
 * Every hop (the URL and each redirect target): the shape is checked (http or https, no
 * credentials, no local names), the host resolved once and refused when any answer is not
 * public (unless private targets are allowed), and the connection goes to the address that
 * passed, Host and TLS (SNI, certificate) keeping the name: no second lookup, so a name that
 * answers differently a moment later (DNS rebinding) changes nothing. A 3xx is followed only
 * when the caller allows redirects; otherwise it is the answer. One deadline covers DNS,
 * connecting, every hop and the body (the client also bounds connecting alone); the body goes
 * through the one bounded reader (lib/net/bounded_body.ts): cut at maxBytes (`over:
 * "truncate"`) or refused (`"refuse"`: error `too_large`). Never throws: failures are results.
 */
import { checkedAddress, type Resolver, UnsafeUrlError } from "./ssrf.ts";
import { readBounded } from "./bounded_body.ts";
import type { UpstreamClient, UpstreamResult } from "./upstream_types.ts";

export type GuardedFetchDeps = {
  /** A client that connects to the pinned address (edge/upstream_client.ts userUrlClient). */
  client: UpstreamClient;
  resolveDns: typeof Deno.resolveDns;
  /** Private and loopback targets allowed (nothing is resolved then: no pin either). */
  allowPrivate: boolean;
};

export type GuardedRequest = {
  url: string | URL;
  headers?: [string, string][];
  /** Redirects followed, each target checked as a new hop. 0 (default): a 3xx is the answer. */
  maxRedirects?: number;
  /** The whole exchange: DNS, connecting, every hop and the body. */
  timeoutMs: number;
  maxBytes: number;
  /** Past maxBytes: keep the first maxBytes (`truncated`), or fail with `too_large`. */
  over: "truncate" | "refuse";
  requireHttps?: boolean;
};

export type GuardedError =
  | "unsafe_url"
  | "timeout"
  | "fetch_failed"
  | "too_many_redirects"
  | "bad_redirect"
  | "too_large";

export type GuardedResponse = {
  ok: true;
  /** The URL that answered (after redirects). */
  url: string;
  status: number;
  headers: Headers;
  body: Uint8Array;
  truncated: boolean;
};

export type GuardedFailure = { ok: false; url: string; error: GuardedError; message: string };

const LATE = Symbol("late");

class BodyTimeout extends Error {}

// Long: one loop, one hop per turn, in the order the security issue fixes: check and pin the
// address, request with the time left, re-check a redirect's target on the next turn, then the
// bounded body; every step returns through the same fail/timedOut closures over the current URL,
// and the SSRF guarantees are easier to audit in one place.
export async function guardedFetch(
  deps: GuardedFetchDeps,
  req: GuardedRequest,
): Promise<GuardedResponse | GuardedFailure> {
  const until = performance.now() + req.timeoutMs;
  const maxRedirects = req.maxRedirects ?? 0;
  const policy = { allowPrivate: deps.allowPrivate, requireHttps: req.requireHttps ?? false };
  const resolve: Resolver = (h, t) => deps.resolveDns(h, t);
  let current = String(req.url);
  for (let hop = 0;; hop++) {
    const fail = (error: GuardedError, message: string): GuardedFailure => ({
      ok: false,
      url: current,
      error,
      message,
    });
    const timedOut = () => fail("timeout", `Timed out after ${req.timeoutMs} ms`);
    let url: URL;
    let address: string | undefined;
    try {
      url = new URL(current);
      current = url.href;
      const checked = await within(checkedAddress(url, policy, resolve), until);
      if (checked === LATE) return timedOut();
      address = checked;
    } catch (e) {
      const why = e instanceof UnsafeUrlError
        ? e.message
        : e instanceof TypeError
        ? "not a valid URL"
        : "address check failed";
      return fail("unsafe_url", `Refused: ${why}`);
    }
    const left = until - performance.now();
    if (left <= 0) return timedOut();
    const r = await deps.client.request({
      url,
      method: "GET",
      headers: req.headers ?? [],
      maxBuffer: req.maxBytes,
      timeoutMs: left,
      address,
    });
    if (r.kind === "error") {
      if (r.code === "upstream_timeout") return timedOut();
      // "Upstream unreachable", "Upstream closed early", "Upstream sent a malformed response"
      const unreachable = /unreachable/i.test(r.message);
      return fail(
        "fetch_failed",
        unreachable ? "Could not connect to the site" : r.message.replace(/^Upstream/, "The site"),
      );
    }
    let headers: Headers;
    try {
      headers = new Headers(r.headers);
    } catch {
      await cancel(r);
      return fail("fetch_failed", "The site sent a malformed response");
    }
    if (maxRedirects > 0 && r.status >= 300 && r.status < 400 && r.status !== 304) {
      await cancel(r);
      const location = headers.get("location");
      if (!location) return fail("bad_redirect", `Redirect ${r.status} without a Location`);
      if (hop >= maxRedirects) {
        return fail("too_many_redirects", `More than ${maxRedirects} redirects`);
      }
      try {
        current = new URL(location, url).href;
      } catch {
        return fail("bad_redirect", "Redirect to an invalid URL");
      }
      continue;
    }
    const ok = (body: Uint8Array, truncated: boolean): GuardedResponse => ({
      ok: true,
      url: current,
      status: r.status,
      headers,
      body,
      truncated,
    });
    // A buffered body is within maxBytes; a stream is what outgrew it.
    if (r.kind === "buffered") return ok(r.body, false);
    if (req.over === "refuse") {
      await cancel(r);
      return fail("too_large", `Body over the ${req.maxBytes}-byte limit`);
    }
    if (req.maxBytes === 0) {
      await cancel(r); // the head was all the caller wanted
      return ok(new Uint8Array(0), true);
    }
    try {
      const read = await readBounded(r.body, req.maxBytes, {
        over: "truncate",
        until,
        onIdle: () => new BodyTimeout(),
      });
      return ok(read.bytes, read.truncated);
    } catch (e) {
      return e instanceof BodyTimeout
        ? timedOut()
        : fail("fetch_failed", "The connection broke while reading the page");
    }
  }
}

/** `p`, or LATE when `until` (performance.now()) passes first. */
async function within<T>(p: Promise<T>, until: number): Promise<T | typeof LATE> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  p.catch(() => {}); // a refusal that comes after the deadline is nobody's to handle
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), Math.max(0, until - performance.now()));
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function cancel(r: UpstreamResult): Promise<void> {
  if (r.kind === "stream") await r.body?.cancel().catch(() => {});
}

/** The deps from the services: their client and resolver, private targets as the caller says. */
export function guardedDeps(
  s: { userUrlClient: UpstreamClient; resolveDns: typeof Deno.resolveDns },
  allowPrivate: boolean,
): GuardedFetchDeps {
  return { client: s.userUrlClient, resolveDns: s.resolveDns, allowPrivate };
}
