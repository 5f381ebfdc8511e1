/**
 * Compressed hits against identity hits of the program Deno Deploy runs: `deno run -A main.ts`
 * (bench/main_proc.ts) on each runtime, tenant `bench` proxying a 40 KB CMS list answer. After
 * one fill and the copies made (edge/cache/variants.ts), wrk runs identity, br and gzip hits in
 * interleaved rounds (ROUNDS × SECONDS, 64 connections); each figure is the median of the
 * rounds' req/s, with every round's p99, the server's CPU per hit from /proc, and the bytes of
 * one answer per coding.
 *
 *   BENCH_DATABASE_URL=postgres://… deno run -A bench/compressed_hits.ts [deno25 …]
 *
 * Arguments: the runtimes to start main.ts with (default: this one). Environment: ROUNDS (3),
 * SECONDS (5).
 */
import { withMainProcess } from "./main_proc.ts";
import { runWrk } from "./wrk.ts";
import { rawGet } from "./http1.ts";
import { cpuMicros } from "./rss.ts";
import { cmsList } from "./cms_list.ts";

const ROUNDS = Number(Deno.env.get("ROUNDS") ?? 3);
const SECONDS = Number(Deno.env.get("SECONDS") ?? 5);
const PATH = "/entries";
const CODINGS: [string, string | null][] = [["identity", null], ["br", "br"], ["gzip", "gzip"]];

type Row = {
  runtime: string;
  coding: string;
  rps: number[];
  p99: number[];
  cpuUs: number;
  bytes: number;
};

async function measure(deno: string, base: string, origin: string): Promise<Row[]> {
  return await withMainProcess(
    base,
    origin,
    async (p) => {
      const tmp = await Deno.makeTempDir({ prefix: "cachely-compressed-" });
      try {
        const bytes = new Map<string, number>();
        for (let i = 0; i < 3; i++) await rawGet(p.api.base, p.api.path(PATH), p.api.host!);
        await new Promise((r) => setTimeout(r, 500)); // the copies are made off the hit path
        for (const [name, ae] of CODINGS) {
          const r = await rawGet(
            p.api.base,
            p.api.path(PATH),
            p.api.host!,
            ae ? { "accept-encoding": ae } : {},
          );
          if ((r.headers.get("content-encoding") ?? null) !== ae) {
            throw new Error(`${name}: got content-encoding ${r.headers.get("content-encoding")}`);
          }
          bytes.set(name, r.bodyBytes);
        }
        const rows = new Map<string, Row>(CODINGS.map(([c]) => [c, {
          runtime: deno,
          coding: c,
          rps: [],
          p99: [],
          cpuUs: 0,
          bytes: bytes.get(c)!,
        }]));
        const requests = new Map<string, number>();
        for (let round = 0; round < ROUNDS; round++) {
          for (const [name, ae] of CODINGS) {
            const before = await cpuMicros(p.pid);
            const w = await runWrk(tmp, p.api, PATH, {
              connections: 64,
              durationSec: SECONDS,
              headers: ae ? { "accept-encoding": ae } : {},
            });
            if (w.errors > 0) throw new Error(`${w.errors} errors (${name})`);
            const row = rows.get(name)!;
            row.rps.push(w.rps);
            row.p99.push(w.p99Ms);
            row.cpuUs += (await cpuMicros(p.pid)) - before;
            requests.set(name, (requests.get(name) ?? 0) + w.requests);
          }
        }
        for (const row of rows.values()) row.cpuUs /= requests.get(row.coding)!;
        return [...rows.values()];
      } finally {
        await Deno.remove(tmp, { recursive: true }).catch(() => {});
      }
    },
    { QUOTAS: "off" }, // the free plan would pause the tenant within a run
    [deno],
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (import.meta.main) {
  const base = Deno.env.get("BENCH_DATABASE_URL") ?? Deno.env.get("TEST_DATABASE_URL");
  if (!base) throw new Error("set BENCH_DATABASE_URL (a PostgreSQL server)");
  const body = cmsList();
  const origin = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () =>
      new Response(body, {
        headers: { "content-type": "application/json" },
      }),
  );
  try {
    const runtimes = Deno.args.length ? Deno.args : [Deno.execPath()];
    console.log(
      `| runtime | answer | req/s (median of ${ROUNDS}) | × identity | p99 per round, ms | CPU per hit, µs | bytes |`,
    );
    console.log("| --- | --- | --- | --- | --- | --- | --- |");
    for (const deno of runtimes) {
      const version = new TextDecoder().decode(
        (await new Deno.Command(deno, { args: ["--version"], stdout: "piped" }).output()).stdout,
      ).split("\n")[0];
      const rows = await measure(deno, base, `http://127.0.0.1:${origin.addr.port}`);
      const id = median(rows[0].rps);
      for (const r of rows) {
        console.log(
          `| ${version} | ${r.coding} | ${median(r.rps).toFixed(0)} | ${
            (median(r.rps) / id).toFixed(2)
          } | ${r.p99.map((x) => x.toFixed(1)).join(", ")} | ${r.cpuUs.toFixed(1)} | ${r.bytes} |`,
        );
      }
    }
    console.log(`\n40 KB answer: ${body.length} bytes identity at the origin`);
  } finally {
    await origin.shutdown();
  }
}
