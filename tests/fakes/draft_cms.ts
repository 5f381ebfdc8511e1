/**
 * A fake of four CMS APIs that hold drafts, on one loopback port (provider hosts map to it
 * through hostMappingClient), for the draft-leak tests. Every answer that holds unpublished
 * content carries DRAFT_MARK, and the fake counts them. Its reading of draft switches is
 * WIDER than the real CMSs' (names in any case, decoded repeatedly, `;` as a separator), so
 * a request that gets no draft here gets none from the real CMS either:
 * - Sanity (`/v<version>/data/…`): drafts unless every `perspective` is `published`; none
 *   given means `raw` (drafts) before API version 2025-02-19; draft ids in the path; export,
 *   history and listen.
 * - Storyblok (`/v2/cdn/…`): drafts for any `version` other than `published`, `from_release`.
 * - Prismic (`/api/v2…`): drafts for a ref that is not a master ref (past or present); the
 *   API root lists the master ref and a release ref.
 * - Contentful: every answer from preview.contentful.com; GraphQL `preview: true` elsewhere.
 */
import { serveOnLoopback } from "../harness.ts";

/** Bytes that only a draft answer holds. */
export const DRAFT_MARK = "DRAFT-7f3a-UNPUBLISHED";
export const PUBLISHED_MARK = "published-c41e";
export const PRISMIC_RELEASE_REF = "release-ref-9";

export type DraftCms = {
  url: string;
  port: number;
  /** Draft answers given, and to which request (path?query, host). */
  drafts: string[];
  requests: number;
  /** Every request: what was asked and the credential it carried (header or query). */
  seen: { what: string; credential: string; seq: number; draft: boolean }[];
  /** Publishes in Prismic: a new master ref (the old one stays a past master). */
  publish(): string;
  masterRef(): string;
  close(): Promise<void>;
};

function decodeAll(s: string): string {
  let cur = s;
  for (let i = 0; i < 6; i++) {
    let next = cur.replace(/\+/g, " ");
    try {
      next = decodeURIComponent(next);
    } catch {
      break;
    }
    if (next === cur) break;
    cur = next;
  }
  return cur;
}

/** [name, value] pairs as the widest parser reads them (`a%3Db` names split too). */
function widePairs(search: string): [string, string][] {
  const out: [string, string][] = [];
  for (const piece of search.replace(/^\?/, "").split(/[&;]/)) {
    if (!piece) continue;
    const whole = decodeAll(piece);
    const eq = whole.indexOf("=");
    const name = (eq < 0 ? whole : whole.slice(0, eq)).trim().toLowerCase().replace(/\[.*$/, "");
    out.push([name, (eq < 0 ? "" : whole.slice(eq + 1)).trim()]);
  }
  return out;
}

function sanityDraft(path: string, pairs: [string, string][]): boolean {
  const p = decodeAll(path);
  if (/drafts\.|versions\./i.test(p) || /\/data\/(export|history|listen)/.test(p)) return true;
  const persp = pairs.filter(([n]) => n.includes("perspective")).map(([, v]) => v);
  if (persp.some((v) => v !== "published")) return true;
  if (persp.length > 0) return false;
  const version = /^\/v([^/]+)\//.exec(p)?.[1] ?? "1";
  return !/^\d{4}-\d{2}-\d{2}$/.test(version) || version < "2025-02-19";
}

function storyblokDraft(pairs: [string, string][]): boolean {
  return pairs.some(([n, v]) =>
    (n.includes("version") && v !== "published") || n.includes("release")
  );
}

/**
 * `tls`: serve HTTPS with this certificate (real processes reach it by the CMS host names
 * through tests/fakes/connect_proxy.ts); the host is then the URL's (HTTP/2 has no Host).
 */
export function startDraftCms(tls?: { cert: string; key: string }): DraftCms {
  const drafts: string[] = [];
  const masters = ["master-ref-1"];
  let requests = 0;
  const seen: DraftCms["seen"] = [];
  const answer = (draft: boolean, what: string) => {
    if (draft) drafts.push(what);
    seen[seen.length - 1].draft = draft;
    // seq: every answer is unique, so a test can tell which request an answer came from
    return Response.json({
      seq: requests,
      result: [{ title: draft ? DRAFT_MARK : PUBLISHED_MARK }],
    });
  };
  const server = serveOnLoopback((req) => {
    requests++;
    const url = new URL(req.url);
    const host = (req.headers.get("host") ?? url.host).toLowerCase();
    const pairs = widePairs(url.search);
    const what = `${host}${url.pathname}${url.search}`;
    const credential = req.headers.get("authorization") ?? url.searchParams.get("token") ??
      url.searchParams.get("access_token") ?? "";
    seen.push({ what, credential, seq: requests, draft: false });
    if (host.startsWith("preview.contentful.com")) return answer(true, what);
    if (host.endsWith("contentful.com")) {
      return answer(pairs.some(([, v]) => /preview\s*:\s*true/i.test(v)), what);
    }
    if (url.pathname.startsWith("/v2/cdn/")) return answer(storyblokDraft(pairs), what);
    if (url.pathname === "/api/v2") { // the API root as Prismic documents it: no trailing slash
      return Response.json({
        refs: [
          { id: "master", ref: masters.at(-1), label: "Master", isMasterRef: true },
          { id: "rel", ref: PRISMIC_RELEASE_REF, label: "Spring", isMasterRef: false },
        ],
        types: {},
        languages: [],
      });
    }
    if (url.pathname.startsWith("/api/v2/")) {
      const refs = pairs.filter(([n]) => n.includes("ref")).map(([, v]) => v);
      if (refs.length === 0) return Response.json({ error: "missing ref" }, { status: 400 });
      return answer(refs.some((r) => !masters.includes(r)), what);
    }
    if (/^\/v[^/]*\/data\//.test(url.pathname) || url.pathname.includes("drafts.")) {
      return answer(sanityDraft(url.pathname, pairs), what);
    }
    return answer(false, what);
  }, tls);
  return {
    url: server.url,
    port: server.port,
    drafts,
    seen,
    get requests() {
      return requests;
    },
    publish() {
      masters.push(`master-ref-${masters.length + 1}`);
      return masters.at(-1)!;
    },
    masterRef: () => masters.at(-1)!,
    close: () => server.close(),
  };
}
