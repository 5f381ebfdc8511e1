/**
 * An oracle for edge/cache/freshness.ts: its decisions (may a shared cache store it, its
 * freshness lifetime, its Age) compared with npm `http-cache-semantics` (a maintained RFC 9111
 * implementation, shared-cache mode) on generated header sets. Every disagreement must be one
 * of the explained ones below; anything else fails the test with the header set.
 */
// @ts-types="@types/http-cache-semantics"
import CachePolicy from "http-cache-semantics";
import { assert } from "../../tests/assert.ts";
import { MAX_SECONDS, originFreshness } from "./freshness.ts";

const NOW = Date.UTC(2026, 10, 22, 12);

/** A deterministic generator (mulberry32), so a failure names a reproducible case. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DIRECTIVES = [
  "public",
  "private",
  "no-store",
  "no-cache",
  "must-revalidate",
  "immutable",
  "stale-while-revalidate=30",
  "stale-if-error=60",
];
const MAX_AGES = [null, "max-age=0", "max-age=60", "max-age=3600", "max-age=abc"];
const S_MAXAGES = [null, "s-maxage=0", "s-maxage=30"];
const DATES = [null, 0, -3_600_000, 3_600_000];
const EXPIRES = [null, "+30s", "-30s", "+2h", "0", "2099-01-01", "garbage"];
const LAST_MODIFIED = [null, "-5d", "-1h", "+1h", "garbage"];
const AGES = [null, "10", "100", "-3"];

type Case = { headers: [string, string][]; dateMs: number | null };

function generate(rand: () => number): Case {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const cc = DIRECTIVES.filter(() => rand() < 0.15);
  const ma = pick(MAX_AGES);
  const sm = pick(S_MAXAGES);
  if (ma) cc.push(ma);
  if (sm) cc.push(sm);
  const headers: [string, string][] = [];
  if (cc.length > 0) headers.push(["cache-control", cc.join(", ")]);
  const d = pick(DATES);
  const dateMs = d === null ? null : NOW + d;
  if (dateMs !== null) headers.push(["date", new Date(dateMs).toUTCString()]);
  const base = dateMs ?? NOW;
  const ex = pick(EXPIRES);
  if (ex !== null) headers.push(["expires", relative(ex, base)]);
  const lm = pick(LAST_MODIFIED);
  if (lm !== null) headers.push(["last-modified", relative(lm, base)]);
  const age = pick(AGES);
  if (age !== null) headers.push(["age", age]);
  return { headers, dateMs };
}

/** "+30s", "-5d" … relative to `base` as an HTTP-date; anything else as it is. */
function relative(v: string, base: number): string {
  const m = /^([+-])(\d+)([smhd])$/.exec(v);
  if (!m) return v;
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[3] as "s"];
  return new Date(base + (m[1] === "-" ? -1 : 1) * Number(m[2]) * unit).toUTCString();
}

/** The library's view, with its clock at NOW (the answer just arrived). */
function theirs(headers: [string, string][]) {
  // the library reads its clock through now() (not in its published types)
  class AtNow extends CachePolicy {
    now() {
      return NOW;
    }
  }
  const res = { status: 200, headers: Object.fromEntries(headers) };
  const p = new AtNow({ method: "GET", url: "/", headers: {} }, res, {
    shared: true,
    cacheHeuristic: 0.1,
    immutableMinTimeToLive: 0,
  });
  return { storable: p.storable(), lifetimeS: p.maxAge(), ageS: p.age() };
}

/**
 * Why the two may disagree on this header set (null: they must agree). Each is a place where
 * Cachely follows the RFC more strictly than the library, or bounds what it honours.
 */
function explained(c: Case, what: "storable" | "lifetime" | "age"): string | null {
  const h = new Map(c.headers);
  const cc = h.get("cache-control") ?? "";
  if (what === "age") {
    // a negative Age is invalid (RFC 9111 §5.1: delta-seconds), so 0; the library parses -3
    return h.get("age") === "-3" ? "negative Age" : null;
  }
  if (what === "lifetime") {
    const explicit = /max-age|s-maxage/.test(cc);
    // only an HTTP-date is a date (RFC 9111 §5.3); the library's Date.parse takes 2099-01-01
    if (!explicit && h.get("expires") === "2099-01-01") return "Expires not an HTTP-date";
  }
  return null;
}

Deno.test("freshness decisions agree with http-cache-semantics on 5,000 generated header sets, bar the explained", () => {
  const rand = random(9111);
  const counts = new Map<string, number>();
  let agreed = 0;
  for (let i = 0; i < 5_000; i++) {
    const c = generate(rand);
    const ours = originFreshness(c.headers, NOW);
    const lib = theirs(c.headers);
    const checks: ["storable" | "lifetime" | "age", unknown, unknown][] = [
      ["storable", ours.storable, lib.storable],
      ["age", ours.ageMs / 1000, Math.min(lib.ageS, MAX_SECONDS)],
    ];
    // the lifetime matters only for what may be stored
    if (ours.storable && lib.storable) {
      checks.push(["lifetime", ours.lifetimeMs / 1000, Math.min(lib.lifetimeS, MAX_SECONDS)]);
    }
    let all = true;
    for (const [what, a, b] of checks) {
      if (a === b) continue;
      all = false;
      const why = explained(c, what);
      assert(
        why !== null,
        `${what}: ours ${a}, http-cache-semantics ${b}, unexplained, for ${JSON.stringify(c)}`,
      );
      counts.set(why, (counts.get(why) ?? 0) + 1);
    }
    if (all) agreed++;
  }
  // the generator must exercise real agreement, not only explained differences (a quarter of
  // the sets carry the negative Age)
  assert(agreed > 3_500, `only ${agreed} of 5,000 agreed (${JSON.stringify([...counts])})`);
});
