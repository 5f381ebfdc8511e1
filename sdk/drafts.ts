/**
 * Draft switches: per provider kind, the request parts that make a CMS answer with
 * unpublished content, and what a visitor's request carrying one gets. One entry per
 * kind (`DRAFT_SWITCHES`); the edge compiles the entries of a tenant into one guard
 * (`visitorGuard`). docs/providers.md "Draft switches" is the table in prose.
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
import type { ProviderKind } from "./providers.ts";

/** Why a visitor's request was refused: the parameter (or `path`) and a sentence. */
export type DraftRefusal = { param: string; message: string };

/** One documented switch of a provider (docs/providers.md). */
export type DraftSwitchDoc = { name: string; visitor: string; preview: string };

/** A provider's draft switches. */
export type DraftSwitches = {
  /** The switches as documented: what a visitor and what a preview link gets. */
  switches: readonly DraftSwitchDoc[];
  /**
   * API hosts of this CMS: a tenant of another kind (`generic`) whose API origin is one of
   * them gets this guard too.
   */
  apiHost: RegExp;
  /** Hosts whose every answer may be a draft (a preview API): visitors are refused. */
  previewHosts: readonly string[];
  /** Refuses a visitor's path and canonical query pairs, or null. */
  check(path: string, pairs: readonly CanonicalPair[]): DraftRefusal | null;
  /** Parameters added (when absent) so the CMS answers published content. */
  published: readonly [string, string][];
  /** A parameter naming a content version that must be a published (master) ref. */
  refParam: string | null;
};

/** A query parameter as a liberal parser would see it: lower-case name, decoded value. */
export type CanonicalPair = { name: string; raw: string; value: string };

const MAX_DECODE_ROUNDS = 4;

/** Decodes `+` and percent escapes until stable (a double-encoded name is still found). */
function decodeFully(s: string): string {
  let cur = s;
  for (let i = 0; i < MAX_DECODE_ROUNDS; i++) {
    let next = cur.replace(/\+/g, " ");
    try {
      next = decodeURIComponent(next);
    } catch {
      next = next.replace(/%([0-9a-f]{2})/gi, (_m, h) => String.fromCharCode(parseInt(h, 16)));
    }
    if (next === cur) break;
    cur = next;
  }
  return cur;
}

/** `Perspective[]`, ` perspective ` → `perspective`. */
function canonicalName(decoded: string): string {
  return decoded.trim().toLowerCase().replace(/\[.*$/, "").trim();
}

/**
 * The pairs of a raw query (without `?`) as the most liberal server would read them:
 * split on `&` and `;`, decoded until stable, an `=` found inside a decoded name splits it.
 */
export function canonicalPairs(raw: string): CanonicalPair[] {
  const out: CanonicalPair[] = [];
  for (const piece of raw.split(/[&;]/)) {
    if (piece === "") continue;
    const eq = piece.indexOf("=");
    const rawName = eq < 0 ? piece : piece.slice(0, eq);
    let value = eq < 0 ? "" : decodeFully(piece.slice(eq + 1));
    let name = decodeFully(rawName);
    const hidden = name.indexOf("=");
    if (hidden >= 0) {
      value = name.slice(hidden + 1) + (eq < 0 ? "" : `=${value}`);
      name = name.slice(0, hidden);
    }
    out.push({ name: canonicalName(name), raw: rawName, value: value.trim() });
  }
  return out;
}

/** The visitor-facing parameter name for a message: as sent, decoded. */
function shown(p: CanonicalPair): string {
  return decodeFully(p.raw).trim() || p.name;
}

// ------------------------------------------------------------------ Sanity

/**
 * GROQ that names draft or release-version ids. The one idiom that excludes drafts,
 * `!(_id in path("drafts.**"))`, is common in queries written before perspectives and
 * is allowed; every other mention is refused.
 */
const DRAFT_ID = /drafts\.|versions\./i;
const EXCLUDE_DRAFTS = /!\s*\(\s*_id\s+in\s+path\s*\(\s*(["'])drafts\.\*\*\1\s*\)\s*\)/gi;
/** Release and version functions of GROQ (sanity::versionOf, sanity::partOfRelease). */
const VERSION_FUNCTIONS = /sanity::(versionof|partofrelease)/i;
/** The first dated API version that knows `perspective` (older ones answer raw). */
const FIRST_PERSPECTIVE_VERSION = "2021-03-25";
/** Endpoints that read every document state whatever the perspective. */
const SANITY_ALL_STATES = /\/data\/(export|history|listen)(\/|$)/i;

function sanityCheck(path: string, pairs: readonly CanonicalPair[]): DraftRefusal | null {
  const p = decodeFully(path);
  if (DRAFT_ID.test(p)) {
    return {
      param: "path",
      message: "Draft and version document ids (drafts.…, versions.…) are not served to visitors",
    };
  }
  const version = /^\/v(\d{4}-\d{2}-\d{2}|\d+)(?:\/|$)/i.exec(p)?.[1];
  if (version !== undefined && (!version.includes("-") || version < FIRST_PERSPECTIVE_VERSION)) {
    return {
      param: "path",
      message: `Sanity API v${version} cannot be limited to published documents: ` +
        `use API version v${FIRST_PERSPECTIVE_VERSION} or later`,
    };
  }
  if (SANITY_ALL_STATES.test(p)) {
    return { param: "path", message: "Export, history and listen read drafts: not for visitors" };
  }
  for (const pair of pairs) {
    if (pair.name === "perspective" && pair.value !== "published") {
      return {
        param: shown(pair),
        message: `perspective=${pair.value || "(empty)"} reads unpublished content: ` +
          "visitors get perspective=published only (a preview link allows drafts)",
      };
    }
    const text = `${pair.name}=${pair.value}`.replace(EXCLUDE_DRAFTS, "");
    if (DRAFT_ID.test(text) || VERSION_FUNCTIONS.test(text)) {
      return {
        param: shown(pair),
        message: `${shown(pair)} reads draft or version documents (drafts.…, versions.…): ` +
          "not served to visitors (a preview link allows it)",
      };
    }
  }
  return null;
}

// --------------------------------------------------------------- Storyblok

function storyblokCheck(_path: string, pairs: readonly CanonicalPair[]): DraftRefusal | null {
  for (const pair of pairs) {
    if (pair.name === "version" && pair.value !== "published") {
      return {
        param: shown(pair),
        message: `version=${pair.value || "(empty)"} reads unpublished content: ` +
          "visitors get version=published only (a preview link allows drafts)",
      };
    }
    if (pair.name === "from_release") {
      return {
        param: shown(pair),
        message: "from_release reads an unpublished release: not served to visitors",
      };
    }
  }
  return null;
}

// -------------------------------------------------------------- Contentful

/** GraphQL's `preview: true` argument (answered only with a Preview API token). */
const GRAPHQL_PREVIEW = /\bpreview\s*:\s*true\b/i;

function contentfulCheck(_path: string, pairs: readonly CanonicalPair[]): DraftRefusal | null {
  for (const pair of pairs) {
    if (GRAPHQL_PREVIEW.test(pair.value)) {
      return {
        param: shown(pair),
        message: `${shown(pair)} asks for preview content: not served to visitors`,
      };
    }
  }
  return null;
}

const NO_CHECK = (): null => null;

/** Each kind's draft switches; null where the kind has no drafts. */
export const DRAFT_SWITCHES: Record<ProviderKind, DraftSwitches | null> = {
  sanity: {
    switches: [
      {
        name: "perspective",
        visitor: "400 unless `published`; added as `perspective=published` when absent " +
          "(API versions before 2025-02-19 default to `raw`, which includes drafts)",
        preview: "any (`drafts`, `raw`, `previewDrafts`, release ids)",
      },
      {
        name:
          "GROQ and $params naming `drafts.` / `versions.` ids, sanity::versionOf / partOfRelease",
        visitor: '400 naming the parameter (`!(_id in path("drafts.**"))` is allowed)',
        preview: "allowed",
      },
      {
        name:
          "path: draft ids, API v1 or before v2021-03-25, /data/export, /data/history, /data/listen",
        visitor: "400 (`path`)",
        preview: "allowed",
      },
    ],
    apiHost: /(^|\.)(api|apicdn)\.sanity\.io$/,
    previewHosts: [],
    check: sanityCheck,
    published: [["perspective", "published"]],
    refParam: null,
  },
  storyblok: {
    switches: [
      {
        name: "version",
        visitor: "400 unless `published` (the default when absent)",
        preview: "`draft` allowed",
      },
      { name: "from_release", visitor: "400", preview: "allowed" },
    ],
    apiHost: /^api(-[a-z]+)?\.storyblok\.com$|(^|\.)storyblokchina\.cn$/,
    previewHosts: [],
    check: storyblokCheck,
    published: [],
    refParam: null,
  },
  prismic: {
    switches: [
      {
        name: "ref",
        visitor: "400 unless a master ref (read from the API root, cached; a recent master " +
          "ref stays valid); preview and release refs are refused",
        preview: "any ref, including the `io.prismic.preview` cookie's",
      },
    ],
    apiHost: /(^|\.)prismic\.io$/,
    previewHosts: [],
    check: NO_CHECK,
    published: [],
    refParam: "ref",
  },
  contentful: {
    switches: [
      {
        name: "API host preview.contentful.com (the Preview API)",
        visitor: "403: a tenant whose API origin is the Preview API answers visitors nothing",
        preview: "the tenant's preview token on preview.contentful.com",
      },
      { name: "GraphQL `preview: true`", visitor: "400", preview: "allowed" },
    ],
    apiHost: /(^|\.)contentful\.com$/,
    previewHosts: ["preview.contentful.com"],
    check: contentfulCheck,
    published: [],
    refParam: null,
  },
  shopify: null,
  cloudinary: null,
  imgix: null,
  generic: null,
};

/** A tenant's compiled guard: every kind whose definition applies to it. */
export type VisitorGuard = {
  /** Which definitions apply (`sanity`, `sanity+contentful`, …): part of memo keys. */
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
