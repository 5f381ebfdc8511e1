/**
 * SSRF guard for every server-side fetch of a user-supplied URL: only http(s),
 * no credentials in the URL, and every address the host resolves to must be
 * public (unless private upstreams are explicitly allowed, as on the embedded default).
 */
import { isIpLiteral, isPublicIp } from "./ip.ts";

export type Resolver = (host: string, type: "A" | "AAAA") => Promise<string[]>;

export class UnsafeUrlError extends Error {
  override name = "UnsafeUrlError";
}

export type UrlPolicy = { allowPrivate: boolean; requireHttps: boolean };

/** Checks scheme and shape only (no DNS). Throws UnsafeUrlError with the reason. */
export function checkUrlShape(raw: string | URL, policy: UrlPolicy): URL {
  let url: URL;
  try {
    url = typeof raw === "string" ? new URL(raw) : raw;
  } catch {
    throw new UnsafeUrlError("not a valid URL");
  }
  const httpsOnly = policy.requireHttps && !policy.allowPrivate;
  if (url.protocol !== "https:" && (httpsOnly || url.protocol !== "http:")) {
    throw new UnsafeUrlError(httpsOnly ? "must use https" : "must use http or https");
  }
  if (url.username || url.password) throw new UnsafeUrlError("must not contain credentials");
  const host = url.hostname.toLowerCase();
  if (!policy.allowPrivate) {
    if (
      host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") ||
      host.endsWith(".internal") || !host.includes(".") && !host.startsWith("[")
    ) {
      throw new UnsafeUrlError("host is not public");
    }
    if (isIpLiteral(host) && !isPublicIp(host)) throw new UnsafeUrlError("address is not public");
  }
  return url;
}

/** Resolves the host and refuses when any address is non-public. Returns the addresses. */
export async function assertPublicHost(
  host: string,
  resolve: Resolver,
  allowPrivate: boolean,
): Promise<string[]> {
  const bare = host.replace(/^\[|\]$/g, "");
  if (isIpLiteral(bare)) {
    if (!allowPrivate && !isPublicIp(bare)) throw new UnsafeUrlError("address is not public");
    return [bare];
  }
  if (allowPrivate) return [];
  const [a, aaaa] = await Promise.all([
    resolve(bare, "A").catch(() => [] as string[]),
    resolve(bare, "AAAA").catch(() => [] as string[]),
  ]);
  const all = [...a, ...aaaa];
  if (all.length === 0) throw new UnsafeUrlError("host does not resolve");
  if (all.some((ip) => !isPublicIp(ip))) {
    throw new UnsafeUrlError("host resolves to a non-public address");
  }
  return all;
}

/**
 * The address a connection to `url` must use: shape and DNS checked once, and the first
 * answer returned, so the caller connects there instead of resolving the name again (DNS
 * rebinding). Undefined when private targets are allowed (nothing is resolved; the name is
 * used). Used by the edge (edge/upstream.ts) and the guarded fetch (lib/net/guarded_fetch.ts).
 */
export async function checkedAddress(
  url: URL,
  policy: UrlPolicy,
  resolve: Resolver,
): Promise<string | undefined> {
  checkUrlShape(url, policy);
  if (policy.allowPrivate) return undefined;
  const [address] = await assertPublicHost(url.hostname, resolve, false);
  return address;
}

/** Shape check plus DNS check in one call. */
export async function assertSafeUrl(
  raw: string | URL,
  policy: UrlPolicy,
  resolve: Resolver,
): Promise<URL> {
  const url = checkUrlShape(raw, policy);
  await assertPublicHost(url.hostname, resolve, policy.allowPrivate);
  return url;
}
