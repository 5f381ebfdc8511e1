/**
 * `deno task start` runs main.ts with V8 flags that bound what a burst of cache misses leaves
 * resident (docs/decisions.md "Edge cache memory"): the young generation at 2 × 8 MiB, where
 * V8 would size it from the machine's RAM (2 × 32 MiB on a 24 GB machine), and pages a GC
 * frees returned at once instead of pooled for 8 s. The bench starts Cachely with the same
 * flags, so the memory it reports is that of the process production runs.
 */
import { assert, assertEquals } from "./assert.ts";
import { benchV8Flags, startTaskEnv, startTaskV8Flags } from "../bench/cachely_proc.ts";

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
const s = v8.getHeapSpaceStatistics().find((x) => x.space_name === "new_space");
console.log(s.space_size / 1048576, keep.length);
`;

Deno.test("deno task start caps V8's young generation at 2 × 8 MiB after a burst", async () => {
  const [young, kept] = await evalNumbers(BURST, [...startTaskV8Flags(), "--expose-gc"]);
  assertEquals(kept, 1_500_000);
  // ~9.5 MiB with the flag; without it ~40–51 MiB on a 24 GB machine.
  assert(young <= 16, `new space ${young} MiB`);
});

Deno.test("the start task returns freed V8 pages at once, and the bench runs with its flags", () => {
  assert(startTaskV8Flags().includes("--memory-pool-timeout=0"), startTaskV8Flags().join(","));
  assert(benchV8Flags().startsWith(`${startTaskV8Flags().join(",")},--expose-gc`), benchV8Flags());
});

/**
 * 1 MiB buffers (the edge's slabs) allocated after some were freed, then every other one
 * dropped: the MiB given back to the system. glibc raises its mmap threshold past 1 MiB on
 * the first free of a mapped block, so later slabs land in its heap and leave holes.
 */
const SLAB_CHURN = `
const gcAll = async () => {
  for (let i = 0; i < 3; i++) { globalThis.gc(); await new Promise((r) => setTimeout(r, 100)); }
};
let warm = Array.from({ length: 20 }, () => new Uint8Array(1 << 20).fill(1));
warm = null;
await gcAll();
const slabs = Array.from({ length: 200 }, () => new Uint8Array(1 << 20).fill(1));
await gcAll();
const full = Deno.memoryUsage().rss;
for (let i = 0; i < slabs.length; i += 2) slabs[i] = null;
await gcAll();
console.log(Math.round((full - Deno.memoryUsage().rss) / 1048576), slabs.filter(Boolean).length);
`;

Deno.test("the start task's malloc setting gives a dead slab's MiB back to the system", async () => {
  const env = startTaskEnv();
  assertEquals(env.MALLOC_MMAP_THRESHOLD_, "131072");
  const [returned, alive] = await evalNumbers(SLAB_CHURN, ["--expose-gc"], env);
  assertEquals(alive, 100);
  // 100 MiB with the setting; 0 without it (glibc 2.36)
  assert(returned >= 80, `${returned} MiB returned of 100 freed`);
});
