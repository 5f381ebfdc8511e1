/**
 * `deno task start` runs main.ts with V8 flags that bound what a burst of cache misses leaves
 * resident (docs/decisions.md "Edge cache memory"): the young generation at 2 × 8 MiB, where
 * V8 would size it from the machine's RAM (2 × 32 MiB on a 24 GB machine). Only flags Deno 2.5's
 * V8 knows (`--memory-pool-timeout` is not one: `deno task start` refused to start there). The
 * slabs give their memory back without any setting (edge/cache/slabs.ts), which is what Deno
 * Deploy, running `deno run` without flags or malloc settings, relies on.
 */
import { assert, assertEquals } from "./assert.ts";
import { benchV8Flags, startTaskEnv, startTaskV8Flags } from "../bench/cachely_proc.ts";
import { SLAB_BYTES } from "../edge/cache/slabs.ts";

/** Runs `code` in a child Deno with `v8Flags` and `env`; the numbers it printed on one line. */
async function evalNumbers(
  code: string,
  v8Flags: string[],
  env: Record<string, string> = {},
): Promise<number[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", `--v8-flags=${v8Flags.join(",")}`, code],
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(out.success, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim().split(" ").map(Number);
}

/** New space committed after a burst in which what is allocated survives, then a full GC. */
const BURST = `
import v8 from "node:v8";
const keep = [];
for (let i = 0; i < 1_500_000; i++) keep.push({ i, s: "entry-" + i });
globalThis.gc();
let young = -1; // Deno 2.5's node:v8 has no getHeapSpaceStatistics ("Not implemented")
try {
  young = v8.getHeapSpaceStatistics().find((x) => x.space_name === "new_space").space_size / 1048576;
} catch { /* not measurable here */ }
console.log(young, keep.length);
`;

Deno.test("deno task start caps V8's young generation at 2 × 8 MiB after a burst", async () => {
  const [young, kept] = await evalNumbers(BURST, [...startTaskV8Flags(), "--expose-gc"]);
  assertEquals(kept, 1_500_000); // the runtime accepted every flag of the start task
  // ~9.5 MiB with the flag; without it ~40–51 MiB on a 24 GB machine. Deno 2.5 cannot tell.
  if (young !== -1) assert(young <= 16, `new space ${young} MiB`);
});

Deno.test("the bench runs with the start task's flags", () => {
  assert(benchV8Flags().startsWith(`${startTaskV8Flags().join(",")},--expose-gc`), benchV8Flags());
});

/**
 * 1 MiB buffers (the edge's slabs) allocated after some were freed, then every other one
 * dropped: the MiB given back to the system. glibc raises its mmap threshold past 1 MiB on
 * the first free of a mapped block, so later slabs land in its heap and leave holes.
 */
const SLAB_CHURN = (make: string) => `
const make = ${make};
const gcAll = async () => {
  for (let i = 0; i < 3; i++) { globalThis.gc(); await new Promise((r) => setTimeout(r, 100)); }
};
let warm = Array.from({ length: 20 }, () => make().fill(1));
warm = null;
await gcAll();
const slabs = Array.from({ length: 200 }, () => make().fill(1));
await gcAll();
const full = Deno.memoryUsage().rss;
for (let i = 0; i < slabs.length; i += 2) slabs[i] = null;
await gcAll();
console.log(Math.round((full - Deno.memoryUsage().rss) / 1048576), slabs.filter(Boolean).length);
`;

Deno.test("the start task's malloc setting gives a dead slab's MiB back to the system", async () => {
  const env = startTaskEnv();
  assertEquals(env.MALLOC_MMAP_THRESHOLD_, "131072");
  const plain = "() => new Uint8Array(1 << 20)";
  const [returned, alive] = await evalNumbers(SLAB_CHURN(plain), ["--expose-gc"], env);
  assertEquals(alive, 100);
  // 100 MiB with the setting; 0 without it (glibc 2.36)
  assert(returned >= 80, `${returned} MiB returned of 100 freed`);
});

Deno.test("a dead slab's MiB go back to the system with no malloc setting (Deno Deploy)", async () => {
  assertEquals(SLAB_BYTES, 1 << 20);
  // What edge/cache/slabs.ts allocates (slabBuffer); a plain Uint8Array here returns 0 MiB.
  const resizable = "() => new Uint8Array(new ArrayBuffer(1 << 20, { maxByteLength: 1 << 20 }))";
  const [returned, alive] = await evalNumbers(SLAB_CHURN(resizable), ["--expose-gc"], {});
  assertEquals(alive, 100);
  assert(returned >= 80, `${returned} MiB returned of 100 freed`);
});
