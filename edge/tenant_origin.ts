/**
 * The origin a visitor used to reach a tenant (the scheme of PUBLIC_URL, the host of the
 * request): provider URLs are rewritten to it and cache keys carry it.
 */
import type { EdgeTarget } from "./types.ts";

/** Slugs remembered per map before it is emptied (a slug's origin is cheap to rebuild). */
const MAX_SLUGS = 10_000;

export class TenantOrigins {
  private readonly scheme: string;
  // tenant and preview origins per slug, so a hit builds no origin string
  private readonly tenant = new Map<string, string>();
  private readonly preview = new Map<string, string>();

  constructor(publicUrl: string, private readonly proxyDomain: string) {
    this.scheme = new URL(publicUrl).protocol;
  }

  /** The origin of `req` on `target`: the slug's host, or the custom domain as requested. */
  of(req: Request, target: EdgeTarget): string {
    return target.surface === "domain"
      ? `${this.scheme}//${hostOf(req, target.hostname)}`
      : this.ofSlug(target.slug, target.surface === "preview");
  }

  private ofSlug(slug: string, preview: boolean): string {
    const m = preview ? this.preview : this.tenant;
    let o = m.get(slug);
    if (o === undefined) {
      o = `${this.scheme}//${slug}.${preview ? "preview." : ""}${this.proxyDomain}`;
      if (m.size >= MAX_SLUGS) m.clear();
      m.set(slug, o);
    }
    return o;
  }
}

/**
 * The custom-domain host the visitor used, port included (local set-ups), when
 * it is a plain host name; otherwise the routed hostname.
 */
function hostOf(req: Request, routed: string): string {
  let h = req.headers.get("host");
  if (!h) {
    const url = req.url;
    const s = url.indexOf("://") + 3;
    const e = url.indexOf("/", s);
    h = url.slice(s, e === -1 ? url.length : e);
  }
  h = h.toLowerCase().replace(/\.$/, "");
  return /^[a-z0-9.-]+(:\d{1,5})?$/.test(h) && h.startsWith(routed) ? h : routed;
}
