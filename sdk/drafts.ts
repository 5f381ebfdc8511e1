/**
 * Draft switches: per provider kind, the request parts that make a CMS answer with
 * unpublished content, and what a visitor's request carrying one gets. Each kind's
 * definition holds its own (`drafts`, sdk/providers/<kind>.ts); the edge compiles the
 * entries of a tenant into one guard (`visitorGuard`). docs/providers.md "Draft switches"
 * is the table in prose.
 *
 * A visitor (a request without a valid preview link) never reaches drafts: an explicit
 * switch is refused with 400 naming the parameter (a developer sees at once why), and a
 * CMS whose default is not "published" gets the published switch added. Detection is
 * deliberately wider than the CMS's own parsing: names in any case, percent-encoded
 * (once or more), `+` for space, `;` as a separator, an `=` hidden in an encoded name,
 * repeated parameters (any one draft value refuses).
 *
 * Dependency-free, like sdk/providers.ts.
 *
 * @module
 */
import { type ProviderKind, tableOf } from "./providers.ts";
import type { CanonicalPair, DraftRefusal } from "./providers/draft_query.ts";
import type { DraftSwitches } from "./providers/types.ts";

export { type CanonicalPair, canonicalPairs, type DraftRefusal } from "./providers/draft_query.ts";
export type { DraftSwitches } from "./providers/types.ts";

/** Each kind's draft switches; null where the kind has no drafts. */
export const DRAFT_SWITCHES: Record<ProviderKind, DraftSwitches | null> = tableOf((d) =>
  d.drafts ?? null
);

/** A tenant's compiled guard: every kind whose definition applies to it. */
export type VisitorGuard = {
  /** Which definitions apply (`sanity`, `contentful+sanity`, ..., in the list's order): part of memo keys. */
  id: string;
  /** True when the API origin is a preview host: no visitor request passes. */
  previewHost: boolean;
  check(path: string, pairs: readonly CanonicalPair[]): DraftRefusal | null;
  published: readonly [string, string][];
  refParam: string | null;
};

/** Applies to no tenant of a kind without drafts on a host of no CMS. */
export const NO_GUARD: VisitorGuard = {
  id: "",
  previewHost: false,
  check: () => null,
  published: [],
  refParam: null,
};

/** The host of an origin URL, lower case; "" when it is not a URL. */
function hostOfOrigin(origin: string | null): string {
  if (!origin) return "";
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#:]+)/i.exec(origin);
  return m ? m[1].toLowerCase() : "";
}

/**
 * The guard for a tenant: its kind's switches, plus those of any CMS whose API host the
 * origin is (a `generic` tenant pointed at Sanity is guarded as Sanity).
 */
export function visitorGuard(kind: ProviderKind, apiOrigin: string | null): VisitorGuard {
  const host = hostOfOrigin(apiOrigin);
  const kinds = (Object.keys(DRAFT_SWITCHES) as ProviderKind[]).filter((k) => {
    const d = DRAFT_SWITCHES[k];
    return d !== null && (k === kind || (host !== "" && d.apiHost.test(host)));
  });
  if (kinds.length === 0) return NO_GUARD;
  const defs = kinds.map((k) => DRAFT_SWITCHES[k]!);
  return {
    id: kinds.join("+"),
    previewHost: defs.some((d) => d.previewHosts.includes(host)),
    check(path, pairs) {
      for (const d of defs) {
        const r = d.check(path, pairs);
        if (r) return r;
      }
      return null;
    },
    published: defs.flatMap((d) => d.published),
    refParam: defs.find((d) => d.refParam !== null)?.refParam ?? null,
  };
}
