// scratch (not committed): sampling heap profile of what survives scavenges during a miss burst
import { spawnReady } from "./proc.ts";
import { withMainProcess } from "./main_proc.ts";
import { runWrk } from "./wrk.ts";

const port = Number(Deno.env.get("DIAG_INSPECT") ?? 9431);
const warm = Number(Deno.env.get("DIAG_WARM") ?? 30000);
const secs = Number(Deno.env.get("DIAG_SECONDS") ?? 10);
const base = Deno.env.get("BENCH_DATABASE_URL")!;
type Node = { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: Node[] };

function cdp(url: string) {
  const ws = new WebSocket(url);
  let id = 0;
  const pending = new Map<number, (v: unknown) => void>();
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.id && pending.has(m.id)) { pending.get(m.id)!(m.result ?? m.error); pending.delete(m.id); }
  };
  const open = new Promise((r) => (ws.onopen = r));
  return {
    async send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
      await open;
      const my = ++id;
      const p = new Promise<T>((r) => pending.set(my, r as (v: unknown) => void));
      ws.send(JSON.stringify({ id: my, method, params }));
      return await p;
    },
    close: () => ws.close(),
  };
}
const short = (u: string) => u.replace(/^file:\/\/\/work\/wt\/rss\//, "").replace(/^.*node_modules\//, "npm:");
const origin = await spawnReady(Deno.execPath(), ["run", "-A", new URL("./origin.ts", import.meta.url).pathname]);
try {
  await withMainProcess(base, `http://127.0.0.1:${origin.ready.port}`, async (p) => {
    const tmp = await Deno.makeTempDir();
    const live = Deno.env.get("DIAG_MODE") === "live";
    const list0 = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
    const c0 = cdp(list0[0].webSocketDebuggerUrl);
    await c0.send("HeapProfiler.enable");
    if (live) {
      await c0.send("HeapProfiler.collectGarbage");
      console.log("idle heap after GC", JSON.stringify(await c0.send("Runtime.getHeapUsage")));
      await c0.send("HeapProfiler.startSampling", { samplingInterval: 4096 });
    }
    let done = 0;
    for (let run = 0; done < warm; run++) {
      const w = await runWrk(tmp, p.api, "/miss/", { connections: 64, durationSec: 5, uniquePrefix: `/miss/w${run}-`, uniqueKeys: warm - done });
      done += w.requests;
    }
    console.log(`warmed ${done}`);
    const c = c0;
    if (!live) await c.send("HeapProfiler.startSampling", { samplingInterval: 8192, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false });
    const w = await runWrk(tmp, p.api, "/miss/", { connections: 64, durationSec: secs, uniquePrefix: `/miss/p-` });
    if (live) {
      await c.send("HeapProfiler.collectGarbage");
      console.log("heap after GC", JSON.stringify(await c.send("Runtime.getHeapUsage")));
    }
    const r = await c.send<{ profile: { head: Node } }>("HeapProfiler.stopSampling");
    c.close();
    console.log(`profiled ${w.requests} misses`);
    // aggregate: by top frame, and by first project frame (the stack's deepest frame in the tree)
    const byTop = new Map<string, number>();
    const byOwn = new Map<string, number>();
    const byStack = new Map<string, number>();
    let total = 0;
    const walk = (n: Node, stack: string[]) => {
      const cf = n.callFrame;
      const name = `${cf.functionName || "(anon)"} ${short(cf.url)}:${cf.lineNumber + 1}`;
      const st = [...stack, name];
      if (n.selfSize > 0) {
        total += n.selfSize;
        byTop.set(name, (byTop.get(name) ?? 0) + n.selfSize);
        const own = [...st].reverse().find((s) => /\s(edge|lib|main|app|routes)\b/.test(s) && !s.includes("ext:")) ?? "(none)";
        byOwn.set(own, (byOwn.get(own) ?? 0) + n.selfSize);
        const tail = st.slice(-6).join(" < ".replace("<", "←"));
        byStack.set(st.slice(-8).reverse().join("\n      "), (byStack.get(st.slice(-8).reverse().join("\n      ")) ?? 0) + n.selfSize);
        void tail;
      }
      for (const ch of n.children) walk(ch, st);
    };
    walk(r.profile.head, []);
    const per = (b: number) => `${(b / 1048576).toFixed(2)} MiB ${(b / (live ? 19000 : w.requests)).toFixed(0)} B/${live ? "entry" : "miss"}`;
    console.log(`total sampled (survived a scavenge): ${per(total)}`);
    const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
    console.log("\n== by allocating frame");
    for (const [k, v] of top(byTop, 30)) console.log(`${per(v).padStart(24)}  ${k}`);
    console.log("\n== by deepest project frame");
    for (const [k, v] of top(byOwn, 30)) console.log(`${per(v).padStart(24)}  ${k}`);
    console.log("\n== top stacks");
    for (const [k, v] of top(byStack, 25)) console.log(`${per(v)}\n      ${k}`);
    await Deno.remove(tmp, { recursive: true });
  }, { DIAG_FLAGS: `--inspect=127.0.0.1:${port} ${Deno.env.get("DIAG_FLAGS") ?? ""}`, DIAG_TRACE: Deno.env.get("DIAG_TRACE") ?? "", DIAG_DENO: Deno.env.get("DIAG_DENO") ?? "/root/.npm/_npx/7a40be787520bede/node_modules/deno/deno" }, ["/tmp/rss/denowrap.sh"]);
} finally {
  await origin.stop();
}
