/**
 * The draft-leak property (docs/providers.md "Draft switches"): generated visitor requests
 * (switches in any case and encoding, repeated parameters, `;` separators, cookies, refs,
 * preview hosts, headers) against tenants with draft-capable tokens on N edge instances.
 * Holds when: no answer carries a draft, the draft fake gave no draft answer, and no cache
 * entry of any instance holds draft bytes. Shared by tests/drafts_property_test.ts (10,000
 * requests on in-process instances), tests/drafts_instances_test.ts (real processes) and
 * bench/drafts_property.ts (a larger run).
 *
 * The world is pluggable (`PropertyWorld`): in process, every cache entry is read after the
 * run; an answer whose `Cache-Status` says `stored` must hold no draft and come from no
 * preview credential; for real processes (whose caches cannot be read), after the run every
 * URL visitors were served, and every preview URL without its link, is asked again on every
 * instance and must get no draft and no preview answer.
 */
import { DRAFT_MARK, type DraftCms, PRISMIC_RELEASE_REF } from "./fakes/draft_cms.ts";
import { draftWorld, PREVIEW_CANARY } from "./fakes/draft_world.ts";
import { PREVIEW_TOKEN_PARAM } from "../lib/preview/link_token.ts";
import { prng } from "./sequential_sim.ts";

/** Where the property runs: N edges over one draft fake, tenants named as in draft_world. */
export type PropertyWorld = {
  cms: DraftCms;
  slugs: string[];
  instances: number;
  /** A preview token for `slug` (its own secret and id unless told otherwise). */
  link(slug: string, o?: { scope?: string; ttlSeconds?: number; secret?: string }): Promise<string>;
  /** A visitor's request on `slug`'s host, on instance `i`. */
  request(slug: string, path: string, init: RequestInit, i: number): Response | Promise<Response>;
  /** Lets `ms` pass on every instance (a manual clock; real processes: nothing). */
  advance(ms: number): void;
  /** Every cache entry of every instance, where the caches can be read (in process). */
  entries: (() => { key: string; body: Uint8Array }[]) | null;
};

/** The in-process world: `instances` edges over one KV (tests/fakes/draft_world.ts). */
async function inProcessWorld(instances: number) {
  const w = await draftWorld(instances);
  return {
    cms: w.cms,
    slugs: w.slugs,
    instances,
    link: w.link,
    request: w.request,
    advance: (ms: number) => {
      for (const e of w.edges) e.clock.advance(ms);
    },
    entries: () =>
      w.edges.flatMap((e) =>
        [...e.edge.cache.lru.keys()].flatMap((key) => {
          const obj = e.edge.cache.peek(key);
          return obj ? [{ key, body: obj.body }] : [];
        })
      ),
    [Symbol.asyncDispose]: () => w[Symbol.asyncDispose](),
  };
}

export type PropertyStats = {
  requests: number;
  instances: number;
  byStatus: Record<string, number>;
  /** Answers without a valid preview link that carried a draft (must be 0). */
  draftAnswers: number;
  /** Draft answers the CMS gave to requests without the preview credential (must be 0). */
  cmsDraftCount: number;
  cmsDrafts: string[];
  /** Requests with a valid link, and how many of their answers were drafts (> 0: it works). */
  previews: number;
  previewDrafts: number;
  /** Answers that crossed: a preview answer to a visitor or a public one to a preview (0). */
  crossed: number;
  /** Invalid links (expired, forged, foreign, out of scope) not answered 403 (must be 0). */
  badLinksPassed: number;
  /** Cache entries holding draft bytes, over all instances (must be 0; -1: not readable). */
  draftEntries: number;
  cacheEntries: number;
  /** Answers stored (Cache-Status `stored`) that were drafts or preview answers (must be 0). */
  storedDrafts: number;
  storedAnswers: number;
  /** Replays after the run (visitor URLs, preview URLs without the link, on every instance). */
  replays: number;
  /** Replays answered with a draft or a preview answer (must be 0). */
  replayLeaks: number;
  ms: number;
};

/**
 * The leak counts of a run that are not 0 (each must be): drafts answered or fetched without a
 * link, crossed answers, forged links let through, drafts stored or replayed, and drafts in a
 * cache entry where the caches could be read (`draftEntries` is -1 on real processes).
 */
export function draftLeaks(s: PropertyStats): Record<string, number> {
  const counts: Record<string, number> = {
    draftAnswers: s.draftAnswers,
    cmsDraftCount: s.cmsDraftCount,
    crossed: s.crossed,
    badLinksPassed: s.badLinksPassed,
    storedDrafts: s.storedDrafts,
    replayLeaks: s.replayLeaks,
    draftEntries: Math.max(s.draftEntries, 0),
  };
  return Object.fromEntries(Object.entries(counts).filter(([, n]) => n !== 0));
}

type Gen = {
  r: () => number;
  pick<T>(xs: readonly T[]): T;
  chance(p: number): boolean;
};

function gen(seed: number): Gen {
  const r = prng(seed);
  return {
    r,
    pick: (xs) => xs[Math.floor(r() * xs.length)],
    chance: (p) => r() < p,
  };
}

const hex = (c: string) => "%" + c.charCodeAt(0).toString(16).padStart(2, "0");

/** Random case, and some characters (or all, or twice) percent-encoded. */
function spell(g: Gen, s: string, allowCase = true): string {
  let out = allowCase && g.chance(0.3)
    ? [...s].map((c) => (g.chance(0.5) ? c.toUpperCase() : c)).join("")
    : s;
  const how = g.r();
  if (how < 0.15) out = [...out].map((c) => (g.chance(0.3) ? hex(c) : c)).join("");
  else if (how < 0.2) out = [...out].map(hex).join("");
  else if (how < 0.25) out = encodeURIComponent(out).replace(/%/g, "%25");
  else out = encodeURIComponent(out).replace(/%20/g, g.chance(0.5) ? "+" : "%20");
  return out;
}

/** One `name=value` piece, sometimes with the `=` itself encoded into the name. */
function pair(g: Gen, name: string, value: string): string {
  if (g.chance(0.06)) return spell(g, `${name}=${value}`, false);
  const v = g.chance(0.1) ? ` ${value}` : value;
  return `${spell(g, name)}=${spell(g, v, false)}`;
}

const PERSPECTIVES = [
  "published",
  "published",
  "drafts",
  "raw",
  "previewDrafts",
  "rSpring24",
  "published,drafts",
  "Published",
  "",
];
const GROQ = [
  '*[_type == "post"]',
  '*[_type == "post"]',
  '*[_id in path("drafts.**")]',
  '*[_type=="post" && !(_id in path("drafts.**"))]',
  "*[_id == $id][0]",
  '*[_id in path("versions.**")]',
  "*[sanity::versionOf($id)]",
  '*[_id == "drafts.post-1"]',
];
const SANITY_PATHS = [
  "/v2025-02-19/data/query/production",
  "/v2025-02-19/data/query/production",
  "/v2021-10-21/data/query/production",
  "/v1/data/query/production",
  "/v2025-02-19/data/doc/production/post-1",
  "/v2025-02-19/data/doc/production/drafts.post-1",
  "/v2024-01-01/data/doc/production/drafts%2Epost-1",
  "/v2025-02-19/data/export/production",
  "/v2025-02-19/data/listen/production",
];

function sanityRequest(g: Gen): string {
  const q: string[] = [];
  if (g.chance(0.9)) q.push(pair(g, "query", g.pick(GROQ)));
  if (g.chance(0.4)) q.push(pair(g, "$id", JSON.stringify(g.pick(["post-1", "drafts.post-1"]))));
  const n = g.pick([0, 0, 1, 1, 2, 3]);
  for (let i = 0; i < n; i++) q.push(pair(g, "perspective", g.pick(PERSPECTIVES)));
  return `${g.pick(SANITY_PATHS)}?${q.join("&")}`;
}

function storyblokRequest(g: Gen): string {
  const q: string[] = [];
  const n = g.pick([0, 1, 1, 2]);
  for (let i = 0; i < n; i++) {
    q.push(pair(g, "version", g.pick(["published", "draft", "Draft", "DRAFT", "", "draft "])));
  }
  if (g.chance(0.1)) q.push(pair(g, "from_release", "12345"));
  if (g.chance(0.3)) q.push(pair(g, "cv", String(Math.floor(g.r() * 3))));
  if (g.chance(0.1)) q.push(pair(g, "token", "visitor-token"));
  return `${g.pick(["/stories", "/stories/home", "/links"])}?${q.join("&")}`;
}

function prismicRequest(g: Gen, refs: () => string[]): string {
  const q: string[] = [];
  const n = g.pick([1, 1, 1, 2, 0]);
  const choices = [
    ...refs(),
    ...refs(),
    PRISMIC_RELEASE_REF,
    "https://acme-repo.prismic.io/previews/abc:def?websitePreviewId=1",
    "random-ref",
  ];
  for (let i = 0; i < n; i++) q.push(pair(g, "ref", g.pick(choices)));
  if (g.chance(0.3)) q.push(pair(g, "q", '[[at(document.type,"post")]]'));
  return `/documents/search?${q.join("&")}`;
}

function contentfulRequest(g: Gen): string {
  if (g.chance(0.5)) return `/spaces/x/entries?${g.chance(0.2) ? pair(g, "preview", "1") : ""}`;
  const gql = g.pick(['{ post(id: "1") { title } }', '{ post(id: "1", preview: true) { t } }']);
  return `/content/v1/spaces/x?${pair(g, "query", gql)}`;
}

/** Extra noise: tracking, the preview-bypass parameter, junk, a `;` separator. */
function noise(g: Gen, path: string): string {
  let p = path;
  const sep = () => (p.includes("?") ? (g.chance(0.1) ? ";" : "&") : "?");
  if (g.chance(0.2)) p += `${sep()}utm_source=x`;
  if (g.chance(0.1)) p += `${sep()}cachely-preview=1`;
  if (g.chance(0.1)) p += `${sep()}${g.pick(["a", "%zz", "=", "&&", "x[]=1"])}`;
  return p;
}

type LinkKind = "none" | "valid" | "expired" | "forged" | "foreign" | "scope";
const LINK_KINDS: LinkKind[] = [
  "none",
  "none",
  "none",
  "none",
  "none",
  "valid",
  "valid",
  "expired",
  "forged",
  "foreign",
  "scope",
];

function headers(g: Gen): Record<string, string> {
  const h: Record<string, string> = {};
  if (g.chance(0.15)) {
    h.cookie = "io.prismic.preview=https%3A%2F%2Facme-repo.prismic.io%2Fpreviews%2Fx";
  }
  if (g.chance(0.1)) h.authorization = "Bearer visitor";
  if (g.chance(0.1)) h["prismic-ref"] = PRISMIC_RELEASE_REF;
  if (g.chance(0.1)) h["sanity-perspective"] = "drafts";
  if (g.chance(0.2)) h.origin = "https://www.acme.example";
  return h;
}

/** What the run saw, before the summary. */
type Seen = {
  byStatus: Record<string, number>;
  draftAnswers: number;
  previews: number;
  previewDrafts: number;
  crossed: number;
  badLinksPassed: number;
  /** Seqs of answers stored, served to visitors, served to previews. */
  storedSeqs: Set<number>;
  storedDrafts: number;
  storedAnswers: number;
  visitorSeqs: Set<number>;
  previewSeqs: Set<number>;
  /** slug → URLs to ask again after the run (served to visitors; previews without link). */
  replay: Map<string, Set<string>>;
};

const REPLAY_MAX = 400;
const seqOf = (body: string) => /"seq":(\d+)/.exec(body)?.[1];

function remember(seen: Seen, slug: string, url: string): void {
  let urls = seen.replay.get(slug);
  if (urls === undefined) seen.replay.set(slug, urls = new Set());
  if (urls.size < REPLAY_MAX / 4) urls.add(url);
}

/** One generated request, sent to instance `i`, its answer judged into `seen`. */
async function oneRequest(
  w: PropertyWorld,
  g: Gen,
  masters: string[],
  seen: Seen,
  i: number,
): Promise<void> {
  const slug = g.pick(w.slugs);
  const path = slug === "sanity" || slug === "generic-sanity"
    ? sanityRequest(g)
    : slug === "storyblok"
    ? storyblokRequest(g)
    : slug === "prismic"
    ? prismicRequest(g, () => masters)
    : contentfulRequest(g);
  const method = g.chance(0.1) ? "HEAD" : "GET";
  const kind = g.pick(LINK_KINDS);
  const link = await linkFor(w, g, slug, kind);
  const bare = `/~api${noise(g, path)}`;
  let url = bare;
  if (link) {
    url += `${url.includes("?") ? "&" : "?"}${spell(g, PREVIEW_TOKEN_PARAM, false)}=${link}`;
  }
  const res = await w.request(slug, url, { method, headers: headers(g) }, i % w.instances);
  const body = await res.text();
  seen.byStatus[res.status] = (seen.byStatus[res.status] ?? 0) + 1;
  const seq = seqOf(body);
  const stored = /;\s*stored\b/.test(res.headers.get("cache-status") ?? "");
  if (stored) {
    seen.storedAnswers++;
    if (seq !== undefined) seen.storedSeqs.add(Number(seq));
    if (kind === "valid" || body.includes(DRAFT_MARK)) seen.storedDrafts++;
  }
  if (kind === "valid") {
    seen.previews++;
    if (body.includes(DRAFT_MARK)) seen.previewDrafts++;
    // a CMS answer exactly private, no-store; the edge's own errors no-store
    const cc = res.headers.get("cache-control") ?? "";
    if (seq !== undefined ? cc !== "private, no-store" : !cc.includes("no-store")) seen.crossed++;
    if (seq !== undefined) seen.previewSeqs.add(Number(seq));
    if (method === "GET" && res.status === 200) remember(seen, slug, bare);
  } else {
    if (body.includes(DRAFT_MARK)) seen.draftAnswers++;
    if (kind !== "none" && res.status !== 403) seen.badLinksPassed++;
    if (seq !== undefined) seen.visitorSeqs.add(Number(seq));
    if (kind === "none" && method === "GET" && res.status === 200) remember(seen, slug, url);
  }
}

function linkFor(w: PropertyWorld, g: Gen, slug: string, kind: LinkKind): Promise<string> | null {
  if (kind === "none") return null;
  if (kind === "valid") return w.link(slug);
  if (kind === "expired") return w.link(slug, { ttlSeconds: -1 });
  if (kind === "forged") return w.link(slug, { secret: `forged-${g.r()}` });
  if (kind === "foreign") return w.link(g.pick(w.slugs.filter((s) => s !== slug)));
  return w.link(slug, { scope: "/~api/elsewhere" });
}

/**
 * After the run: every remembered URL again, plainly, on every instance. A draft or an answer
 * fetched with the preview credential here is a leak (a stored preview answer served).
 */
async function replayAll(w: PropertyWorld, seen: Seen, previewCredential: Set<number>) {
  let replays = 0;
  let leaks = 0;
  for (const [slug, urls] of seen.replay) {
    for (const url of urls) {
      for (let i = 0; i < w.instances; i++) {
        const body = await (await w.request(slug, url, {}, i)).text();
        replays++;
        const seq = Number(seqOf(body) ?? -1);
        if (body.includes(DRAFT_MARK) || previewCredential.has(seq) || seen.previewSeqs.has(seq)) {
          leaks++;
        }
      }
    }
  }
  return { replays, leaks };
}

/** Cache entries of every instance holding draft bytes (in process only; -1 otherwise). */
function draftEntriesOf(w: PropertyWorld, previewCredential: Set<number>) {
  if (w.entries === null) return { draftEntries: -1, cacheEntries: -1 };
  let draftEntries = 0;
  let cacheEntries = 0;
  const dec = new TextDecoder();
  for (const { key, body } of w.entries()) {
    cacheEntries++;
    const text = dec.decode(body);
    const seq = Number(seqOf(text) ?? -1);
    if (text.includes(DRAFT_MARK) || previewCredential.has(seq) || key.includes(DRAFT_MARK)) {
      draftEntries++;
    }
  }
  return { draftEntries, cacheEntries };
}

/**
 * Runs `requests` generated visitor requests over `instances` edges (in process, or the
 * given world's); returns what it saw.
 */
export async function runDraftProperty(
  opts: {
    requests: number;
    instances: number;
    seed: number;
    concurrency?: number;
    world?: PropertyWorld;
  },
): Promise<PropertyStats> {
  await using own = opts.world ? null : await inProcessWorld(opts.instances);
  const w: PropertyWorld = opts.world ?? own!;
  const g = gen(opts.seed);
  const masters = [w.cms.masterRef()];
  const seen: Seen = {
    byStatus: {},
    draftAnswers: 0,
    previews: 0,
    previewDrafts: 0,
    crossed: 0,
    badLinksPassed: 0,
    storedSeqs: new Set(),
    storedDrafts: 0,
    storedAnswers: 0,
    visitorSeqs: new Set(),
    previewSeqs: new Set(),
    replay: new Map(),
  };
  const started = performance.now();
  const conc = opts.concurrency ?? 8;
  for (let i = 0; i < opts.requests; i += conc) {
    if (i > 0 && i % Math.floor(opts.requests / 3) < conc) {
      masters.push(w.cms.publish()); // a publish mid-run: a new master ref
      w.advance(2_000);
    }
    const batch = [];
    for (let j = i; j < Math.min(i + conc, opts.requests); j++) {
      batch.push(oneRequest(w, g, masters, seen, j));
    }
    await Promise.all(batch);
  }
  // an answer's seq names the CMS request it came from: which credential it carried
  const previewCredential = new Set(
    w.cms.seen.filter((x) => x.credential.includes(PREVIEW_CANARY)).map((x) => x.seq),
  );
  let crossed = seen.crossed;
  for (const seq of seen.visitorSeqs) {
    if (previewCredential.has(seq) || seen.previewSeqs.has(seq)) crossed++;
  }
  for (const seq of seen.previewSeqs) if (!previewCredential.has(seq)) crossed++;
  let storedDrafts = seen.storedDrafts;
  for (const seq of seen.storedSeqs) if (previewCredential.has(seq)) storedDrafts++;
  const cmsDrafts = w.cms.seen.filter((x) => x.draft && !previewCredential.has(x.seq));
  const ms = Math.round(performance.now() - started);
  // in process the caches are read directly (draftEntriesOf); replays stand in for that
  const { replays, leaks } = w.entries === null
    ? await replayAll(w, seen, previewCredential)
    : { replays: 0, leaks: 0 };
  return {
    requests: opts.requests,
    instances: w.instances,
    byStatus: seen.byStatus,
    draftAnswers: seen.draftAnswers,
    cmsDraftCount: cmsDrafts.length,
    cmsDrafts: cmsDrafts.slice(0, 5).map((x) => x.what),
    previews: seen.previews,
    previewDrafts: seen.previewDrafts,
    crossed,
    badLinksPassed: seen.badLinksPassed,
    ...draftEntriesOf(w, previewCredential),
    storedDrafts,
    storedAnswers: seen.storedAnswers,
    replays,
    replayLeaks: leaks,
    ms,
  };
}
