/**
 * Publishes on four real processes (`deno run -A main.ts`, one PostgreSQL database, one KV
 * file) in front of a fake Contentful whose delivery CDN lags a random 0–LAG_MS behind each
 * publish (tests/fakes/publishing_cms.ts). A webhook in "entities" scope; ENTITIES entries
 * of TYPES content types; every instance caches each entry and LISTS list variants per
 * type. Then PUBLISHES publishes of random entries, each delivered to one instance in turn.
 * Per publish, at the CMS's fresh time + 150, 250, 500 and 1,000 ms, every instance is asked
 * for a list variant of the entry's type not asked for since the publish (at + 150 ms the entry
 * too): first requests after the publish, their HITs, stale answers and latency; what the
 * first requests at + 150 ms that were not HITs were; unrelated entries and lists are sampled
 * for HITs, as a random sample is right after the fill (the baseline); origin fetches are
 * counted; the instances' `prewarmed` log lines give each step's time after the webhook.
 *
 * `BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test deno run -A
 * bench/publish_prewarm.ts` prints the RESULTS.md section. Sizes: PUBLISHES, ENTITIES,
 * TYPES, LISTS, LAG_MS in the environment (defaults: the full size, 10,000 answers).
 */
import {
  edgeFetch,
  type Instance,
  sharedWorld,
  signUp,
  startInstance,
  stop,
} from "../tests/instances.ts";
import { type PublishingCms, startPublishingCms } from "../tests/fakes/publishing_cms.ts";

const num = (name: string, d: number) => Number(Deno.env.get(name) ?? d);
const INSTANCES = 4;
const PUBLISHES = num("PUBLISHES", 200);
const ENTITIES = num("ENTITIES", 500);
const TYPES = num("TYPES", 50);
const LISTS = num("LISTS", 40);
const LAG_MS = num("LAG_MS", 500);
/**
 * One publish starts this long after the previous one at least. Kept so runs compare with the
 * recorded ones: the purge records no longer need it (recent entity purges merge too, no fold
 * into a version bump: lib/cache/purge_compact.ts).
 */
const PACE_MS = num("PACE_MS", 1_400);
const ENTRIES = "/~api/environments/master/entries";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];
const loadavg = async () =>
  (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");

const typeOf = (e: number) => `t${e % TYPES}`;
const detail = (e: number) => `${ENTRIES}/e${e}`;
const list = (t: string, v: number) => `${ENTRIES}?content_type=${t}&limit=100&v=${v}`;

type Seen = { cache: string | null; revs: Map<string, number> };

async function get(inst: Instance, host: string, path: string): Promise<Seen> {
  const r = await edgeFetch(inst, host, path);
  const cache = r.head.match(/^x-cachely-cache: *(\S+)/im)?.[1] ?? null;
  const revs = new Map<string, number>();
  try {
    const b = JSON.parse(r.body);
    for (const i of b.items ?? [b]) revs.set(i.sys.id, i.sys.revision);
  } catch { /* an error answer: no revisions */ }
  return { cache, revs };
}

async function pool<T>(items: T[], n: number, f: (t: T) => Promise<void>) {
  let i = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    while (i < items.length) await f(items[i++]);
  }));
}

/** When the first requests after a publish are made (ms after the CMS's fresh time). */
const DELAYS = [150, 250, 500, 1_000];

/** The first requests made at one delay after the CMS turned fresh. */
type Point = { n: number; hits: number; stale: number; ms: number[] };

type Tally = {
  /** What the first requests at + 150 ms that were not HITs were ("entry MISS", …). */
  notHit: Map<string, number>;
  /** Per DELAYS entry. */
  points: Point[];
  unrelated: number;
  unrelatedHit: number;
  fetches: number[];
  staleExamples: string[];
  /** Each publish's CDN lag (ms), for BENCH_LOG. */
  lags: number[];
};

type World = { cms: PublishingCms; instances: Instance[]; host: string; hook: string };

/**
 * One publish of a random entry, its webhook sent to instance n % 4. At each of DELAYS after
 * the CMS's fresh time, every instance is asked for a list variant of the entry's type not
 * asked for since the publish (at the first delay, the entry too): first requests. Then
 * unrelated answers.
 */
async function publishOnce({ cms, instances, host, hook }: World, n: number, m: Tally) {
  const e = Math.floor(Math.random() * ENTITIES);
  const t = typeOf(e);
  const lag = Math.random() * LAG_MS;
  cms.lagMs = lag;
  const seen0 = cms.upstream.seen.length;
  const t0 = performance.now();
  const d = cms.publish(`e${e}`, t, `E${e} r${n}`);
  const want = cms.revision(`e${e}`);
  const inst = instances[n % INSTANCES];
  const r = await fetch(`http://127.0.0.1:${inst.port}${hook}`, {
    method: "POST",
    headers: { "x-contentful-topic": d.topic, "content-type": "application/json" },
    body: JSON.stringify(d.body),
  });
  await r.body?.cancel();
  const v0 = Math.floor(Math.random() * LISTS);
  for (const [j, delay] of DELAYS.entries()) {
    await sleep(Math.max(0, t0 + lag + delay - performance.now()));
    const pt = m.points[j];
    await Promise.all(instances.map(async (i, k) => {
      const v = (v0 + k + j * INSTANCES) % LISTS;
      for (const p of j === 0 ? [detail(e), list(t, v)] : [list(t, v)]) {
        const start = performance.now();
        const s = await get(i, host, p);
        pt.ms.push(performance.now() - start);
        pt.n++;
        if (s.cache === "HIT") pt.hits++;
        else if (j === 0) {
          const what = `${p === detail(e) ? "entry" : "list"} ${s.cache}`;
          m.notHit.set(what, (m.notHit.get(what) ?? 0) + 1);
        }
        if (s.revs.get(`e${e}`) !== want) {
          pt.stale++;
          if (m.staleExamples.length < 5) {
            m.staleExamples.push(`+${delay} ${p} ${s.cache} r${s.revs.get(`e${e}`)} < r${want}`);
          }
        }
      }
    }));
  }
  for (let k = 0; k < 6; k++) { // unrelated: other types' entries and lists
    let o = Math.floor(Math.random() * ENTITIES);
    while (typeOf(o) === t) o = Math.floor(Math.random() * ENTITIES);
    const p = k < 4 ? detail(o) : list(typeOf(o), Math.floor(Math.random() * LISTS));
    const s = await get(pick(instances), host, p);
    m.unrelated++;
    if (s.cache === "HIT") m.unrelatedHit++;
  }
  m.fetches.push(cms.upstream.seen.length - seen0);
  m.lags.push(Math.round(lag));
}

/** The tenant, its webhook in "entities" scope and the entries at the CMS. */
async function setUp(cms: PublishingCms, a: Instance) {
  const owner = await signUp(a);
  const slug = `pub-${crypto.randomUUID().slice(0, 8)}`;
  const made = await owner.req(a, "POST", "/api/tenants", {
    slug,
    cms: "contentful",
    spaceId: "pubspace1",
    apiOrigin: cms.apiOrigin,
    token: "tok",
    cacheTTL: 3600,
  });
  if (made.status !== 201) throw new Error(`tenant: ${made.text}`);
  const w = await owner.req(a, "POST", `/api/tenants/${slug}/cache-refresh-webhooks`, {
    provider: "contentful",
    scope: "entities",
  });
  for (let e = 0; e < ENTITIES; e++) cms.publish(`e${e}`, typeOf(e), `E${e}`);
  return { hook: new URL(w.body.url).pathname, host: `${slug}.localhost:8000` };
}

/** Every instance asks for every answer; then a random sample again (the HIT baseline). */
async function fill(instances: Instance[], host: string) {
  const paths: string[] = [];
  for (let e = 0; e < ENTITIES; e++) paths.push(detail(e));
  for (let t = 0; t < TYPES; t++) for (let v = 0; v < LISTS; v++) paths.push(list(`t${t}`, v));
  const start = performance.now();
  const jobs = instances.flatMap((inst) => paths.map((p) => ({ inst, p })));
  await pool(jobs, 8, async ({ inst, p }) => void await get(inst, host, p));
  const seconds = (performance.now() - start) / 1000;
  console.error(
    `filled ${jobs.length} answers in ${seconds.toFixed(0)} s; load ${await loadavg()}`,
  );
  const sample = Array.from({ length: 400 }, () => pick(jobs));
  let hits = 0;
  await pool(sample, 8, async ({ inst, p }) => {
    if ((await get(inst, host, p)).cache === "HIT") hits++;
  });
  return { answers: jobs.length, perInstance: paths.length, seconds, hits, sampled: sample.length };
}

const STEPS = ["seenMs", "claimedMs", "freshMs", "doneMs"] as const;

/** The instances' `prewarmed` lines: totals, and each step's times after the webhook. */
function prewarmLog(instances: Instance[]) {
  const pw = { runs: 0, keys: 0, won: 0, fetched: 0, copied: 0, missed: 0, failed: 0 };
  const steps = new Map<string, number[]>(STEPS.map((k) => [k, []]));
  for (const line of instances.flatMap((i) => i.out)) {
    if (line.includes('"msg":"prewarm failed"')) pw.failed++;
    if (!line.includes('"msg":"prewarmed"')) continue;
    const j = JSON.parse(line);
    pw.runs++;
    for (const k of ["keys", "won", "fetched", "copied", "missed"] as const) pw[k] += j[k] ?? 0;
    for (const k of STEPS) if (typeof j[k] === "number") steps.get(k)!.push(j[k]);
  }
  const q = (xs: number[], f: number) => xs[Math.min(xs.length - 1, Math.floor(f * xs.length))];
  const quantiles = STEPS.map((k) => {
    const xs = steps.get(k)!.sort((x, y) => x - y);
    return xs.length ? `${k.slice(0, -2)} p50 ${q(xs, 0.5)} / p95 ${q(xs, 0.95)} ms` : `${k}: none`;
  });
  return { pw, quantiles };
}

function report(
  m: Tally,
  f: Awaited<ReturnType<typeof fill>>,
  log: ReturnType<typeof prewarmLog>,
  load: { before: string; after: string },
) {
  const { unrelated, unrelatedHit, fetches, staleExamples, points } = m;
  const sorted = [...fetches].sort((x, y) => x - y);
  const mean = fetches.reduce((s, x) => s + x, 0) / fetches.length;
  const pctOf = (a: number, b: number) => `${(100 * a / b).toFixed(1)} %`;
  const notHit = [...m.notHit].sort((x, y) => y[1] - x[1]).map(([k, n]) => `${n} ${k}`);
  const { pw, quantiles } = log;
  return [
    `## Publishes on ${INSTANCES} instances: purge by entity, read your publish, prewarm (bench/publish_prewarm.ts)`,
    "",
    `${INSTANCES} processes of \`deno run -A main.ts\` (default settings) on one PostgreSQL database and one KV file; a fake Contentful (tests/fakes/publishing_cms.ts) whose CDN lags a random 0–${LAG_MS} ms behind each publish; ${ENTITIES} entries in ${TYPES} types, ${LISTS} list variants per type; ${f.answers} cached answers (${f.perInstance} per instance: ${ENTITIES} entries, ${
      TYPES * LISTS
    } lists of ${ENTITIES / TYPES} entries), filled in ${
      f.seconds.toFixed(0)
    } s. ${PUBLISHES} publishes of random entries, each webhook (scope "entities") delivered to the next instance in turn.`,
    "",
    "| measure | goal | got |",
    "| --- | --- | --- |",
    `| random answers HIT right after the fill (baseline) | | ${
      pctOf(f.hits, f.sampled)
    } of ${f.sampled} |`,
    `| stale answers at CMS fresh + 150 ms (the entry and one list of its type, on each instance) | 0 | ${
      points[0].stale
    } of ${points[0].n} |`,
    `| unrelated answers still HIT (other types' entries and lists, random instance) | ≥ 95 % | ${
      pctOf(unrelatedHit, unrelated)
    } of ${unrelated} |`,
    `| first requests after the publish that are HITs, at CMS fresh + 150 ms | ≥ 95 % | ${
      pctOf(points[0].hits, points[0].n)
    } of ${points[0].n} |`,
    `| origin fetches per publish (prewarm, back-off refetches and the probes' misses) | | mean ${
      mean.toFixed(1)
    }, median ${sorted[sorted.length >> 1]}, max ${sorted.at(-1)} (${
      LISTS + 1
    } answers purged per publish) |`,
    "",
    "First requests after the publish (each instance, a list variant of the entry's type not asked for since the publish; at + 150 ms the entry too), by time after the CMS turned fresh:",
    "",
    "| after fresh | first requests | HIT | stale | latency p50 / p90 (ms) |",
    "| --- | --- | --- | --- | --- |",
    ...points.map((pt, j) => {
      const ms = [...pt.ms].sort((x, y) => x - y);
      const at = (f: number) => ms[Math.min(ms.length - 1, Math.floor(f * ms.length))].toFixed(1);
      return `| + ${DELAYS[j]} ms | ${pt.n} | ${pctOf(pt.hits, pt.n)} | ${pt.stale} | ${
        at(0.5)
      } / ${at(0.9)} |`;
    }),
    "",
    `First requests at + 150 ms that were not HITs: ${notHit.join(", ") || "none"}.`,
    "",
    `Prewarm runs (all instances): ${pw.runs}, ${pw.keys} answers found purged with recent traffic, ${pw.won} claims won, ${pw.fetched} refetched from the origin by a claimer, ${pw.copied} copied from KV, ${pw.missed} waited for in vain, ${pw.failed} runs failed. Steps, ms after the webhook's purge (per run and instance): ${
      quantiles.join("; ")
    } (seen: the snapshot reached the instance; claimed: its claims decided; fresh: its first answer stored fresh; done: all).`,
    "",
    `Load average (1, 5, 15 min) before the publishes: ${load.before}; after: ${load.after} (2 cores, shared with other sessions).`,
    ...(staleExamples.length ? ["", `Stale examples: ${staleExamples.join("; ")}.`] : []),
  ].join("\n");
}

async function main() {
  const base = Deno.env.get("BENCH_DATABASE_URL");
  if (!base) throw new Error("BENCH_DATABASE_URL is not set");
  const world = await sharedWorld(base, Deno.env.get("BENCH_DB_PREFIX") ?? "cachely_pubbench");
  const cms = startPublishingCms();
  const instances: Instance[] = [];
  try {
    instances.push(await startInstance(world.env));
    for (let i = 1; i < INSTANCES; i++) instances.push(await startInstance(world.env));
    const { hook, host } = await setUp(cms, instances[0]);
    const f = await fill(instances, host);
    const before = await loadavg();
    const m: Tally = {
      notHit: new Map(),
      points: DELAYS.map(() => ({ n: 0, hits: 0, stale: 0, ms: [] })),
      unrelated: 0,
      unrelatedHit: 0,
      fetches: [],
      staleExamples: [],
      lags: [],
    };
    for (let n = 0; n < PUBLISHES; n++) {
      const next = performance.now() + PACE_MS;
      await publishOnce({ cms, instances, host, hook }, n, m);
      await sleep(Math.max(0, next - performance.now()));
      if ((n + 1) % 20 === 0) {
        console.error(`${n + 1}/${PUBLISHES} publishes; load ${await loadavg()}`);
      }
    }
    const after = await loadavg();
    const dump = Deno.env.get("BENCH_LOG"); // the instances' prewarm lines and the lags, raw
    if (dump) {
      const lines = instances.flatMap((i, k) =>
        i.out.filter((l) => l.includes('"msg":"prewarm')).map((l) => `${k} ${l}`)
      );
      await Deno.writeTextFile(dump, [`lags ${m.lags.join(",")}`, ...lines].join("\n"));
    }
    console.log(report(m, f, prewarmLog(instances), { before, after }));
  } finally {
    await Promise.all(instances.map(stop));
    await cms.close();
    await world.close();
  }
}

if (import.meta.main) await main();
