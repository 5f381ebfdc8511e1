/**
 * lib/native_heap.ts: on Linux with glibc and the ffi permission the process trims glibc's heap
 * itself; without the permission it does nothing and never throws.
 */
import { assert, assertEquals } from "./assert.ts";
import { tuneNativeHeap } from "../lib/native_heap.ts";

const glibc = Deno.build.os === "linux" && Deno.build.env === "gnu";

Deno.test({
  name: "glibc's heap is trimmed on a timer, and stop() ends it",
  ignore: !glibc,
  fn: async () => {
    const heap = tuneNativeHeap(10);
    assert(heap !== null, "FFI and glibc are there: the tuning must start");
    const until = Date.now() + 5_000;
    while (heap.trims < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    heap.stop();
    assert(heap.trims >= 2, `trims ${heap.trims}`);
    const after = heap.trims;
    await new Promise((r) => setTimeout(r, 50));
    assert(heap.trims <= after + 1, "no trim starts after stop()"); // one may be in flight
  },
});

Deno.test({
  name: "without the ffi permission the tuning is skipped, not an error",
  ignore: !glibc,
  fn: async () => {
    const script = `import { tuneNativeHeap } from ${
      JSON.stringify(
        new URL("../lib/native_heap.ts", import.meta.url).href,
      )
    }; console.log(tuneNativeHeap() === null ? "skipped" : "started");`;
    const file = await Deno.makeTempFile({ suffix: ".ts" });
    await Deno.writeTextFile(file, script);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-config", file], // no permissions: no ffi
      stdout: "piped",
      stderr: "piped",
    }).output();
    await Deno.remove(file);
    assertEquals(new TextDecoder().decode(out.stdout).trim(), "skipped");
    assertEquals(out.code, 0);
  },
});

/** VmRSS of this process, bytes. */
async function rss(): Promise<number> {
  const s = await Deno.readTextFile("/proc/self/status");
  return Number(/VmRSS:\s+(\d+)/.exec(s)![1]) * 1024;
}

Deno.test({
  name: "memory freed in the middle of glibc's heap goes back to the system with a trim",
  ignore: !glibc,
  fn: async () => {
    const libc = Deno.dlopen("libc.so.6", {
      malloc: { parameters: ["usize"], result: "pointer" },
      free: { parameters: ["pointer"], result: "void" },
      memset: { parameters: ["pointer", "i32", "usize"], result: "pointer" },
    });
    const heap = tuneNativeHeap(20);
    assert(heap !== null);
    try {
      // 1,600 blocks of 64 KiB (under the 128 KiB mapping threshold: from the heap), touched,
      // then all freed but the last, which keeps glibc from shrinking the heap's top itself.
      const blocks = Array.from({ length: 1600 }, () => {
        const p = libc.symbols.malloc(65536n)!;
        libc.symbols.memset(p, 1, 65536n);
        return p;
      });
      for (const p of blocks.slice(0, -1)) libc.symbols.free(p);
      const held = await rss();
      const trimsBefore = heap.trims;
      while (heap.trims < trimsBefore + 2) await new Promise((r) => setTimeout(r, 10));
      const trimmed = await rss();
      libc.symbols.free(blocks.at(-1)!);
      assert(held - trimmed > 64 * 1024 * 1024, `RSS ${held} -> ${trimmed}`);
    } finally {
      heap.stop();
      libc.close();
    }
  },
});
