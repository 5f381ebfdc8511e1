/** Validation of tenant-supplied upstream origins (an SSRF surface). */
import type { Services } from "../services.ts";
import { assertSafeUrl, UnsafeUrlError } from "../net/ssrf.ts";
import { badRequest } from "../errors.ts";

/**
 * Normalises an origin (scheme, host, optional base path; no query, fragment or
 * credentials) and refuses private targets unless ALLOW_PRIVATE_UPSTREAMS is on.
 */
export async function validateUpstreamOrigin(
  s: Services,
  field: string,
  raw: string,
): Promise<string> {
  let url: URL;
  try {
    url = await assertSafeUrl(
      raw,
      { allowPrivate: s.config.allowPrivateUpstreams, requireHttps: true },
      (h, t) => s.resolveDns(h, t),
    );
  } catch (e) {
    if (e instanceof UnsafeUrlError) throw badRequest(`Invalid ${field}: ${e.message}`);
    throw e;
  }
  if (url.search || url.hash) {
    throw badRequest(`Invalid ${field}: must not have a query or fragment`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}
