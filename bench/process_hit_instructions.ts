/**
 * Instructions per API cache hit of the whole server process, sockets and Deno's HTTP server
 * included: each tree's `deno run -A main.ts` (its bench/main_proc.ts: fresh PostgreSQL
 * database, real KV file, tenant `bench`) under `valgrind --tool=callgrind` with collection off
 * until the hits are warm. Wall-clock A/B runs on a shared 2-core machine moved ±15 % between
 * rounds of the same tree; callgrind counts do not depend on the machine's load.
 *
 *   deno run -A bench/process_hit_instructions.ts [-n hits] [-r rounds] [--deno PATH] [--keep] DIR...
 *
 * Per tree and round: one miss, 4,000 warm-up hits, then `callgrind_control -i on`, `hits`
 * hits (default 6,000: under valgrind 30–50 s, within the bench tenant's 60 s TTL) over 8 keep-alive connections and 15 s for the usage flush that writes
 * what they recorded, `-i off`; the same collection over an idle stretch as long gives the
 * background work (timers) that is subtracted. `--deno` must be the real ELF binary (not npm's Node launcher).
 * `--floor`: per tree, the same count for bench/floor.ts's `/clone/` (a bare Deno.serve answering a
 * clone of a prebuilt Response, the runtime's cheapest hit) sending exactly the header set the tree's
 * hit sent; tree minus floor is what the tree's own code adds per hit, apart from what the runtime
 * charges for the header fields it sends.
 * `--keep` keeps a callgrind dump of each round's hits (for callgrind_annotate) and prints where.
 * Needs BENCH_DATABASE_URL or TEST_DATABASE_URL, valgrind and callgrind_control.
 */
import { spawnReady } from "./proc.ts";
import { rawGet } from "./http1.ts";

type Api = { base: string; host?: string };
type WithMain = (
  base: string,
  origin: string,
  fn: (p: { pid: number; api: Api }) => Promise<void>,
  env?: Record<string, string>,
  deno?: string[],
) => Promise<void>;

const API_PATH = "/~api/data.json";
const WARM_UP = 4_000;
const CONNECTIONS = 8;
/** Longer than the usage flush interval (10 s), and the flush's own time under valgrind. */
const FLUSH_SETTLE_MS = 15_000;

/** Sends `count` GETs over `connections` keep-alive connections; throws on a non-200. */
async function keepAliveHits(
  api: Api,
  count: number,
  connections = CONNECTIONS,
  path = API_PATH,
) {
  const u = new URL(api.base);
  const request = new TextEncoder().encode(
    `GET ${path} HTTP/1.1\r\nHost: ${api.host ?? u.host}\r\nUser-Agent: cachely-bench\r\n\r\n`,
  );
  let left = count;
  const one = async () => {
    const conn = await Deno.connect({ hostname: u.hostname, port: Number(u.port) });
    const buf = new Uint8Array(256 * 1024);
    try {
      while (left-- > 0) {
        await conn.write(request);
        let have = 0, need = -1;
        while (need < 0 || have < need) {
          const n = await conn.read(buf.subarray(have));
          if (n === null) throw new Error("connection closed mid-answer");
          have += n;
          if (need < 0) {
            const text = new TextDecoder("latin1").decode(buf.subarray(0, have));
            const end = text.indexOf("\r\n\r\n");
            if (end < 0) continue;
            if (!text.startsWith("HTTP/1.1 200")) throw new Error(text.slice(0, end));
            const len = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end));
            if (!len) throw new Error("no content-length");
            need = end + 4 + Number(len[1]);
          }
        }
      }
    } finally {
      conn.close();
    }
  };
  await Promise.all(Array.from({ length: connections }, one));
}

async function control(pid: number, ...args: string[]): Promise<string> {
  // valgrind names its vgdb pipe after $USER and $HOST: main_proc.ts starts main.ts with no
  // USER and HOST=127.0.0.1 (its listen address), so callgrind_control must look the same way.
  const out = await new Deno.Command("callgrind_control", {
    args: [...args, String(pid)],
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOST: "127.0.0.1" },
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`callgrind_control ${args.join(" ")}: ${text}`);
  return text;
}

/** Instructions collected since the last zeroing, summed over threads (`-e -s` lists each). */
async function collected(pid: number): Promise<number> {
  const text = await control(pid, "-e", "-s");
  const threads = [...text.matchAll(/^\s*Th \d+\s+([\d,]+)\s*$/gm)];
  if (threads.length === 0) throw new Error(`no totals in: ${text}`);
  return threads.reduce((sum, m) => sum + Number(m[1].replaceAll(",", "")), 0);
}

/** Collection on for `hits` GETs of `path` after a warm-up; the idle stretch's count subtracted. */
async function countHits(
  pid: number,
  api: Api,
  hits: number,
  path: string,
  dump: string | null,
  settle: boolean,
) {
  await keepAliveHits(api, WARM_UP, CONNECTIONS, path);
  await control(pid, "-i", "on");
  await control(pid, "-z");
  const t0 = performance.now();
  await keepAliveHits(api, hits, CONNECTIONS, path);
  // The usage the hits recorded is written by the next flush (USAGE_FLUSH_INTERVAL_MS, 10 s):
  // per-hit work too, so the count waits for it.
  if (settle) await new Promise((res) => setTimeout(res, FLUSH_SETTLE_MS));
  const busy = await collected(pid);
  if (dump !== null) await control(pid, `--dump=${dump}`);
  const ms = performance.now() - t0;
  await control(pid, "-z");
  await new Promise((res) => setTimeout(res, ms));
  const idle = await collected(pid);
  await control(pid, "-i", "off");
  return {
    perHit: Math.round((busy - idle) / hits),
    text: `busy ${busy}, idle ${idle} over ${(ms / 1000).toFixed(1)} s`,
  };
}

/**
 * The header fields a hit of `api` carries as the server's code passes them: every field but
 * content-length and connection, and `date` only when it is the stored one (the same in two
 * answers a second apart; the runtime adds its own otherwise).
 */
async function hitHeaderSet(api: Api): Promise<[string, string][]> {
  const first = await rawGet(api.base, API_PATH, api.host);
  await new Promise((r) => setTimeout(r, 1100));
  const second = await rawGet(api.base, API_PATH, api.host);
  const stored = first.headers.get("date") === second.headers.get("date");
  return [...second.headers].filter(([k]) =>
    k !== "content-length" && k !== "connection" && (k !== "date" || stored)
  );
}

/** bench/floor.ts under valgrind, answering `/clone/data.json` with `headers`. */
async function countFloor(valgrind: string[], headers: [string, string][], hits: number) {
  const child = new Deno.Command(valgrind[0], {
    args: [...valgrind.slice(1), "run", "-A", new URL("./floor.ts", import.meta.url).pathname],
    // as main_proc.ts starts main.ts, so callgrind_control finds it the same way
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: "/tmp", HOST: "127.0.0.1" },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  try {
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let out = "";
    while (!out.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error("floor.ts exited before ready");
      out += value;
    }
    reader.releaseLock();
    const port = JSON.parse(out.split("\n")[0]).port as number;
    const base = `http://127.0.0.1:${port}`;
    const reg = await fetch(`${base}/__same?path=/data.json`, {
      method: "POST",
      body: JSON.stringify(headers),
    });
    await reg.body?.cancel();
    return await countHits(child.pid, { base }, hits, "/clone/data.json", null, false);
  } finally {
    child.kill("SIGKILL");
    await child.status;
  }
}

if (import.meta.main) {
  const args = [...Deno.args];
  let hits = 6_000, rounds = 2, deno = Deno.execPath(), keep = false, floor = false;
  const dirs: string[] = [];
  while (args.length) {
    const a = args.shift()!;
    if (a === "-n") hits = Number(args.shift());
    else if (a === "-r") rounds = Number(args.shift());
    else if (a === "--deno") deno = args.shift()!;
    else if (a === "--keep") keep = true;
    else if (a === "--floor") floor = true;
    else dirs.push(a.replace(/\/$/, ""));
  }
  const db = Deno.env.get("BENCH_DATABASE_URL") ?? Deno.env.get("TEST_DATABASE_URL");
  if (!db) throw new Error("set BENCH_DATABASE_URL or TEST_DATABASE_URL");
  const here = new URL(".", import.meta.url).pathname;
  const origin = await spawnReady(Deno.execPath(), ["run", "-A", `${here}origin.ts`]);
  const originUrl = `http://127.0.0.1:${origin.ready.port}`;
  const tmp = await Deno.makeTempDir({ prefix: "cachely-callgrind-" });
  const valgrind = [
    "valgrind",
    "--tool=callgrind",
    "--instr-atstart=no",
    "--smc-check=all-non-file",
    `--callgrind-out-file=${tmp}/callgrind.%p`,
    deno,
  ];
  try {
    for (let r = 0; r < rounds; r++) {
      for (const dir of dirs) {
        const withMain = (await import(`${dir}/bench/main_proc.ts`)).withMainProcess as WithMain;
        let headers: [string, string][] = [];
        await withMain(
          db,
          originUrl,
          async ({ pid, api }) => {
            await keepAliveHits(api, 1, 1); // the miss that stores the answer
            // read before the counted hits, as those go out (an Age, the stored Date)
            if (floor) headers = await hitHeaderSet(api);
            const c = await countHits(pid, api, hits, API_PATH, keep ? `hits ${dir}` : null, true);
            console.log(`round ${r + 1} ${dir}: ${c.perHit} instructions per hit (${c.text})`);
          },
          {},
          valgrind,
        );
        if (!floor) continue;
        const f = await countFloor(valgrind, headers, hits);
        console.log(
          `round ${r + 1} floor with ${dir}'s ${headers.length} header fields ` +
            `(${headers.map(([k]) => k).join(", ")}): ${f.perHit} instructions per hit (${f.text})`,
        );
      }
    }
  } finally {
    await origin.stop();
    if (keep) console.log(`callgrind dumps (the hits of each round) kept in ${tmp}`);
    else await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}
