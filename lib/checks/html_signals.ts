/**
 * The website check's analysis (SPEC "Website implementation check"): evidence that
 * the page references Cachely (tenant host, /~api/ or /~assets/ paths, the client
 * library) versus the tenant's CMS hosts. A CMS host counts as direct usage only in
 * a rendered resource context; elsewhere (serialized data, inline script, CSP, other
 * attributes, text) it is only potential. Pure functions over the fetched page.
 */
import {
  type Fragment,
  type FragmentContext,
  pageFragments,
  RESOURCE_CONTEXTS,
} from "./html_fragments.ts";

export type SiteContext = {
  /** Hostnames (no port) of the tenant host and preview host. */
  tenantHosts: string[];
  /** Hostnames of the tenant's CMS: provider asset hosts and the API origin host. */
  cmsHosts: string[];
  cmsLabel: string;
};

export type CachelySignalType = "tenant_host" | "api_path" | "asset_path" | "client_library";
export type CachelySignal = {
  type: CachelySignalType;
  context: FragmentContext | "page";
  where: string;
  evidence: string;
};
export type CmsSignal = {
  host: string;
  context: FragmentContext;
  where: string;
  /** True in a rendered resource context (direct usage), false for potential usage. */
  resource: boolean;
  evidence: string;
};

export type Analysis = {
  cachelyUsage: "detected" | "not_detected" | "inconclusive";
  cachelySignals: CachelySignal[];
  directCmsUsage: "detected" | "potential" | "not_detected";
  directCmsSignals: CmsSignal[];
  cmsLabel: string;
  verdictState: "implemented" | "mixed" | "not_using" | "inconclusive";
  verdict: string;
};

/** Signals kept per list: enough to act on, small enough to read. */
export const MAX_SIGNALS = 20;
const EVIDENCE_CHARS = 160;

const API_PATH_RE = /(?:\/|\\\/|%2f)(?:~|%7e)api(?:\/|\\\/|%2f)/i;
const ASSET_PATH_RE = /(?:\/|\\\/|%2f)(?:~|%7e)assets(?:\/|\\\/|%2f)/i;
/** The client library's package, bundle file names, global and script-tag attributes (sdk/). */
const CLIENT_LIBRARY_RE =
  /@cachely\/sdk|cachely-tracker(?:\.min)?\.m?js|\bcachely\.mjs|\bCachelyTracker\b|data-cachely-(?:tenant|endpoint)/i;

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A hostname as a whole name: not part of a longer label or a longer domain, and not
 * the path segment of a rewritten `/~assets/<host>/...` URL (that one goes through Cachely).
 */
function hostRe(host: string): RegExp {
  return new RegExp(
    `(?<![a-z0-9.-])(?<!(?:~|%7e)assets(?:/|\\\\/|%2f))${escapeRe(host)}(?![a-z0-9-]|\\.[a-z0-9])`,
    "i",
  );
}

function evidence(f: Fragment, index: number): string {
  const v = f.value;
  if (RESOURCE_CONTEXTS.has(f.context) || v.length <= EVIDENCE_CHARS) {
    return v.trim().slice(0, EVIDENCE_CHARS);
  }
  const start = Math.max(0, index - 60);
  return v.slice(start, start + EVIDENCE_CHARS).replace(/\s+/g, " ").trim();
}

function pushUnique<T extends { context: string; where: string }>(
  list: T[],
  key: (t: T) => string,
  item: T,
): void {
  if (list.length >= MAX_SIGNALS) return;
  if (!list.some((x) => key(x) === key(item))) list.push(item);
}

export function findCachelySignals(
  html: string,
  fragments: Fragment[],
  ctx: SiteContext,
): CachelySignal[] {
  const out: CachelySignal[] = [];
  const key = (s: CachelySignal) => `${s.type}|${s.where}`;
  const tests: Array<[CachelySignalType, RegExp]> = [
    ...ctx.tenantHosts.map((h) => ["tenant_host", hostRe(h)] as [CachelySignalType, RegExp]),
    ["api_path", API_PATH_RE],
    ["asset_path", ASSET_PATH_RE],
  ];
  for (const f of fragments) {
    for (const [type, re] of tests) {
      const m = re.exec(f.value);
      if (m) {
        pushUnique(out, key, {
          type,
          context: f.context,
          where: f.where,
          evidence: evidence(f, m.index),
        });
      }
    }
  }
  // Attribute names (data-cachely-tenant) are not in the fragments: scan the page itself.
  const lib = CLIENT_LIBRARY_RE.exec(html);
  if (lib) {
    const start = Math.max(0, lib.index - 60);
    pushUnique(out, key, {
      type: "client_library",
      context: "page",
      where: "page source",
      evidence: html.slice(start, start + EVIDENCE_CHARS).replace(/\s+/g, " ").trim(),
    });
  }
  return out;
}

export function findCmsSignals(fragments: Fragment[], ctx: SiteContext): CmsSignal[] {
  const hosts = [...new Set(ctx.cmsHosts.map((h) => h.toLowerCase()))].map((h) =>
    [h, hostRe(h)] as const
  );
  const found: CmsSignal[] = [];
  const key = (s: CmsSignal) => `${s.host}|${s.where}`;
  // Resource contexts first, so the cap never hides direct usage behind potential hits.
  const ordered = [
    ...fragments.filter((f) => RESOURCE_CONTEXTS.has(f.context)),
    ...fragments.filter((f) => !RESOURCE_CONTEXTS.has(f.context)),
  ];
  for (const f of ordered) {
    for (const [host, re] of hosts) {
      const m = re.exec(f.value);
      if (!m) continue;
      pushUnique(found, key, {
        host,
        context: f.context,
        where: f.where,
        resource: RESOURCE_CONTEXTS.has(f.context),
        evidence: evidence(f, m.index),
      });
    }
  }
  return found;
}

export function analyzePage(html: string, headers: Headers, ctx: SiteContext): Analysis {
  const fragments = pageFragments(html, headers);
  const cachelySignals = findCachelySignals(html, fragments, ctx);
  const directCmsSignals = findCmsSignals(fragments, ctx);
  const directCmsUsage = directCmsSignals.some((s) => s.resource)
    ? "detected"
    : directCmsSignals.length > 0
    ? "potential"
    : "not_detected";
  const cachelyUsage = cachelySignals.length > 0
    ? "detected"
    : directCmsUsage === "not_detected"
    ? "inconclusive" // nothing either way: the CMS is likely called server-side
    : "not_detected";
  const { verdictState, verdict } = verdictFor(
    cachelyUsage,
    directCmsUsage,
    ctx.cmsLabel,
    directCmsSignals,
  );
  return {
    cachelyUsage,
    cachelySignals,
    directCmsUsage,
    directCmsSignals,
    cmsLabel: ctx.cmsLabel,
    verdictState,
    verdict,
  };
}

function verdictFor(
  cachely: Analysis["cachelyUsage"],
  cms: Analysis["directCmsUsage"],
  label: string,
  signals: CmsSignal[],
): Pick<Analysis, "verdictState" | "verdict"> {
  const hosts = [...new Set(signals.filter((s) => s.resource).map((s) => s.host))].join(", ");
  if (cachely === "detected") {
    if (cms === "detected") {
      return {
        verdictState: "mixed",
        verdict: `The site uses Cachely but still loads ${label} resources directly from ${hosts}.`,
      };
    }
    return {
      verdictState: "implemented",
      verdict: cms === "potential"
        ? `The site uses Cachely; ${label} hosts appear only in page data or scripts, not in rendered resources.`
        : "The site uses Cachely and loads no CMS resources directly.",
    };
  }
  if (cms === "detected") {
    return {
      verdictState: "not_using",
      verdict:
        `The site loads ${label} resources directly from ${hosts} and does not reference Cachely.`,
    };
  }
  return {
    verdictState: "inconclusive",
    verdict: cms === "potential"
      ? `${label} hosts appear only in page data or scripts and Cachely is not referenced; the page may render them in the browser.`
      : `Neither Cachely nor ${label} hosts appear in the page; the site may call the CMS server-side.`,
  };
}
