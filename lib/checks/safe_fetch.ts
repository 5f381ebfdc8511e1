/**
 * Fetches a user-supplied page for the implementation checks: every hop (the URL and
 * each redirect target) passes the SSRF guard of lib/net/ssrf.ts, redirects are
 * followed by hand up to a limit, one deadline covers the whole chain and the body,
 * and at most maxBytes of the body are read. Never throws: failures are results.
 */
import { assertPublicHost, checkUrlShape, UnsafeUrlError } from "../net/ssrf.ts";
import { readBounded } from "../net/bounded_body.ts";

export type SafeFetchDeps = {
  fetch: typeof fetch;
  resolveDns: typeof Deno.resolveDns;
  allowPrivate: boolean;
  timeoutMs: number;
  maxRedirects?: number;
  maxBytes?: number;
};

export type SafeFetchError =
  | "unsafe_url"
  | "timeout"
  | "fetch_failed"
  | "too_many_redirects"
  | "bad_redirect";

export type SafeFetchResult =
  | {
    ok: true;
    finalUrl: string;
    status: number;
    headers: Headers;
    body: string;
    truncated: boolean;
  }
  | { ok: false; finalUrl: string; error: SafeFetchError; message: string };

export const DEFAULT_MAX_REDIRECTS = 5;
export const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;
const USER_AGENT = "Cachely-ImplementationCheck/1";

export async function safeFetch(deps: SafeFetchDeps, raw: string): Promise<SafeFetchResult> {
  const ctrl = new AbortController();
  const timer = setTimeout(
    () => ctrl.abort(new DOMException("Timed out", "TimeoutError")),
    deps.timeoutMs,
  );
  try {
    return await follow(deps, raw, ctrl.signal);
  } finally {
    clearTimeout(timer);
  }
}

async function follow(
  deps: SafeFetchDeps,
  raw: string,
  signal: AbortSignal,
): Promise<SafeFetchResult> {
  const maxRedirects = deps.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  let current = raw;
  for (let hop = 0;; hop++) {
    const fail = (error: SafeFetchError, message: string): SafeFetchResult => ({
      ok: false,
      finalUrl: current,
      error,
      message,
    });
    let url: URL;
    try {
      url = checkUrlShape(current, { allowPrivate: deps.allowPrivate, requireHttps: false });
      current = url.href;
      await assertPublicHost(url.hostname, (h, t) => deps.resolveDns(h, t), deps.allowPrivate);
    } catch (e) {
      if (e instanceof UnsafeUrlError) return fail("unsafe_url", `Refused: ${e.message}`);
      return fail("unsafe_url", "Refused: address check failed");
    }
    let res: Response;
    try {
      res = await deps.fetch(url, {
        redirect: "manual",
        signal,
        headers: { "user-agent": USER_AGENT, accept: "text/html,*/*;q=0.8" },
      });
    } catch (e) {
      return signal.aborted || (e as { name?: string })?.name === "TimeoutError"
        ? fail("timeout", `Timed out after ${deps.timeoutMs} ms`)
        : fail("fetch_failed", "Could not connect to the site");
    }
    if (res.status >= 300 && res.status < 400 && res.status !== 304) {
      await res.body?.cancel().catch(() => {});
      const location = res.headers.get("location");
      if (!location) return fail("bad_redirect", `Redirect ${res.status} without a Location`);
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
    try {
      const { text, truncated } = await readPage(res, deps.maxBytes ?? DEFAULT_MAX_BYTES);
      return {
        ok: true,
        finalUrl: current,
        status: res.status,
        headers: res.headers,
        body: text,
        truncated,
      };
    } catch {
      return signal.aborted
        ? fail("timeout", `Timed out after ${deps.timeoutMs} ms`)
        : fail("fetch_failed", "The connection broke while reading the page");
    }
  }
}

/** Reads at most maxBytes, then stops reading (the rest is not needed for the analysis). */
async function readPage(
  res: Response,
  maxBytes: number,
): Promise<{ text: string; truncated: boolean }> {
  const { bytes, truncated } = await readBounded(res.body, maxBytes, { over: "truncate" });
  return { text: new TextDecoder().decode(bytes), truncated };
}
