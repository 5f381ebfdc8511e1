/**
 * Compressed hits of the program Deno Deploy runs, `deno run -A main.ts` (bench/main_proc.ts), on
 * each runtime, side by side with nginx `proxy_cache` + `gzip on; gzip_types application/json`
 * (bench/nginx.ts), both in front of one origin serving a 40 KB CMS list answer. After one fill
 * and the copies made (a hit queues them, edge/cache/variants.ts), wrk (64 connections) runs
 * Cachely's identity, br and gzip hits and nginx's identity and gzip hits in interleaved rounds
 * (ROUNDS × SECONDS). Per answer: req/s and p99 of every round, the server's CPU per hit from
 * /proc (nginx: master and worker), and the bytes of one answer. The dcz deltas (a one-field
 * edit, a new entry) are made by the edge's own code (edge/cache/dictionaries.ts dczOf).
 *
 *   BENCH_DATABASE_URL=postgres://… deno run -A bench/compressed_hits.ts [deno binary …]
 *
 * Arguments: the runtimes to start main.ts with (default: this one): real binaries, not a
 * wrapper or npm's `.bin/deno` launcher (a Node script for some versions), whose own process
 * would be measured and killed while its deno child runs on. Environment: ROUNDS (6),
 * SECONDS (5).
 */
import { withMainProcess } from "./main_proc.ts";
import { runWrk } from "./wrk.ts";
import { rawGet } from "./http1.ts";
import { cpuMicros, treeCpuMicros } from "./rss.ts";
import { cmsList } from "./cms_list.ts";
import { startNginx } from "./nginx.ts";
import type { Target } from "./types.ts";
import {
  type CompressedRow,
  type CompressedRun,
  compressedTable,
  deltaLine,
} from "./compressed_report.ts";
import { dczOf, sha256Base64 } from "../edge/cache/dictionaries.ts";
import { gzipSync } from "node:zlib";

const ROUNDS = Number(Deno.env.get("ROUNDS") ?? 6);
const SECONDS = Number(Deno.env.get("SECONDS") ?? 5);
const PATH = "/entries";

/** One measured answer: where, with which Accept-Encoding, and whose CPU to read. */
type Answer = { name: string; target: Target; ae: string | null; cpu: () => Promise<number> };

/** Body bytes of one answer (chunked framing removed), and its Content-Encoding. */
async function oneAnswer(t: Target, ae: string | null): Promise<[number, string | null]> {
  const send: Record<string, string> = ae ? { "accept-encoding": ae } : {};
  const cmd = ["-s", "-o", "/dev/null", "-w", "%{size_download} %header{content-encoding}"];
  for (const [k, v] of Object.entries({ ...send, ...(t.host ? { host: t.host } : {}) })) {
    cmd.push("-H", `${k}: ${v}`);
  }
  const out = await new Deno.Command("curl", {
    args: [...cmd, `${t.base}${t.path(PATH)}`],
    stdout: "piped",
  }).output();
  const [n, enc] = new TextDecoder().decode(out.stdout).trim().split(" ");
  return [Number(n), enc || null];
}

async function rounds(answers: Answer[], tmp: string): Promise<CompressedRow[]> {
  const rows = new Map<string, CompressedRow & { requests: number; cpu: number }>();
  for (const a of answers) {
    const [bytes, enc] = await oneAnswer(a.target, a.ae);
    if (enc !== a.ae) throw new Error(`${a.name}: got content-encoding ${enc}`);
    rows.set(a.name, {
      answer: a.name,
      rps: [],
      p99Ms: [],
      cpuUsPerHit: 0,
      bytes,
      requests: 0,
      cpu: 0,
    });
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const a of answers) {
      const before = await a.cpu();
      const w = await runWrk(tmp, a.target, PATH, {
        connections: 64,
        durationSec: SECONDS,
        headers: a.ae ? { "accept-encoding": a.ae } : {},
      });
      if (w.errors > 0) throw new Error(`${w.errors} errors (${a.name})`);
      const row = rows.get(a.name)!;
      row.rps.push(w.rps);
      row.p99Ms.push(w.p99Ms);
      row.cpu += (await a.cpu()) - before;
      row.requests += w.requests;
    }
  }
  for (const r of rows.values()) {
    if (r.cpu === 0) throw new Error(`${r.answer}: no CPU time read (a launcher's process?)`);
  }
  return [...rows.values()].map(({ requests, cpu, ...r }) => ({
    ...r,
    cpuUsPerHit: cpu / requests,
  }));
}

async function measure(
  deno: string,
  base: string,
  origin: string,
  nginx: { target: Target; pid: number },
): Promise<CompressedRow[]> {
  return await withMainProcess(
    base,
    origin,
    async (p) => {
      const tmp = await Deno.makeTempDir({ prefix: "cachely-compressed-" });
      try {
        // a miss, the first hit (it queues the copies), another; nginx filled as well
        for (let i = 0; i < 3; i++) await rawGet(p.api.base, p.api.path(PATH), p.api.host!);
        for (let i = 0; i < 2; i++) await oneAnswer(nginx.target, null);
        await new Promise((r) => setTimeout(r, 500)); // the copies are made off the hit path
        const cachely = () => cpuMicros(p.pid);
        const ngx = () => treeCpuMicros(nginx.pid);
        return await rounds([
          { name: "cachely identity", target: p.api, ae: null, cpu: cachely },
          { name: "cachely br", target: p.api, ae: "br", cpu: cachely },
          { name: "cachely gzip", target: p.api, ae: "gzip", cpu: cachely },
          { name: "nginx identity", target: nginx.target, ae: null, cpu: ngx },
          { name: "nginx gzip", target: nginx.target, ae: "gzip", cpu: ngx },
        ], tmp);
      } finally {
        await Deno.remove(tmp, { recursive: true }).catch(() => {});
      }
    },
    { QUOTAS: "off" }, // the free plan would pause the tenant within a run
    [deno],
  );
}

/** dcz of a one-field edit and of a new entry against the list, by the edge's own code. */
async function deltas(): Promise<string[]> {
  const enc = new TextEncoder();
  const v1 = enc.encode(cmsList());
  const dict = { hash: await sha256Base64(v1), bytes: v1 };
  const out: string[] = [];
  for (
    const [what, next] of [["one-field edit", cmsList(36, " (edited)")], ["new entry", cmsList(37)]]
  ) {
    const body = enc.encode(next);
    const gz = gzipSync(body, { level: 6 }).byteLength;
    out.push(deltaLine(what, (await dczOf(body, dict)).byteLength, gz));
  }
  return out;
}

if (import.meta.main) {
  const base = Deno.env.get("BENCH_DATABASE_URL") ?? Deno.env.get("TEST_DATABASE_URL");
  if (!base) throw new Error("set BENCH_DATABASE_URL (a PostgreSQL server)");
  const body = cmsList();
  const origin = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(body, { headers: { "content-type": "application/json" } }),
  );
  const tmp = await Deno.makeTempDir({ prefix: "cachely-compressed-nginx-" });
  const nginx = await startNginx(tmp, origin.addr.port, { gzip: true });
  try {
    const target: Target = {
      name: "nginx",
      base: `http://127.0.0.1:${nginx.port}`,
      path: (p) => p,
    };
    const runs: CompressedRun[] = [];
    for (const deno of Deno.args.length ? Deno.args : [Deno.execPath()]) {
      const out = await new Deno.Command(deno, { args: ["--version"], stdout: "piped" }).output();
      const runtime = /deno (\S+)/.exec(new TextDecoder().decode(out.stdout))?.[1] ?? deno;
      const rows = await measure(deno, base, `http://127.0.0.1:${origin.addr.port}`, {
        target,
        pid: nginx.pid,
      });
      runs.push({ runtime, rows });
      console.log(compressedTable([runs.at(-1)!])); // a runtime's rows as soon as they are in
    }
    console.log(`\n${compressedTable(runs)}\n`);
    console.log(
      `nginx ${nginx.version}; ${ROUNDS} rounds of ${SECONDS} s; ${body.length} bytes identity`,
    );
    for (const l of await deltas()) console.log(l);
  } finally {
    await nginx.stop();
    await origin.shutdown();
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}
