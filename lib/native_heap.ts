/**
 * glibc's heap, kept near what is in use (docs/decisions.md "Edge cache memory"). A burst of
 * requests leaves Deno's native buffers (HTTP, sockets, KV) freed but held by glibc in the
 * middle of its arenas, where it never returns them to the system on its own: 15 MiB idle
 * became 65-70 MiB of RSS for good after a burst of misses. So the process asks glibc itself:
 * allocations of 128 KiB and up get their own mapping (returned when freed; what the start task's
 * MALLOC_MMAP_THRESHOLD_ does, now for `deno run -A main.ts` too), and every TRIM_EVERY_MS a
 * `malloc_trim(0)` returns the free pages of every arena, on a thread of Deno's blocking pool
 * (`nonblocking`), not the event loop.
 *
 * Linux with glibc and the `ffi` permission only: elsewhere (Deno Deploy has no FFI, musl has
 * no malloc_trim) it does nothing.
 */

/** mallopt's M_MMAP_THRESHOLD (glibc malloc.h). */
const M_MMAP_THRESHOLD = -3;
const MMAP_THRESHOLD_BYTES = 128 * 1024;
const TRIM_EVERY_MS = 5_000;

const SYMBOLS = {
  mallopt: { parameters: ["i32", "i32"], result: "i32" },
  malloc_trim: { parameters: ["usize"], result: "i32", nonblocking: true },
} as const;

type NativeHeap = { trims: number; stop(): void };

/** Starts the tuning where it can run; null where it cannot (no glibc, no FFI). */
export function tuneNativeHeap(everyMs = TRIM_EVERY_MS): NativeHeap | null {
  if (Deno.build.os !== "linux" || Deno.build.env !== "gnu") return null;
  let lib: Deno.DynamicLibrary<typeof SYMBOLS>;
  try {
    if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") return null;
    lib = Deno.dlopen("libc.so.6", SYMBOLS);
  } catch {
    return null;
  }
  lib.symbols.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES);
  let inFlight: Promise<unknown> | null = null;
  const heap: NativeHeap = {
    trims: 0,
    stop() {
      clearInterval(timer);
      void (inFlight ?? Promise.resolve()).finally(() => lib.close());
    },
  };
  const timer = setInterval(() => {
    inFlight ??= lib.symbols.malloc_trim(0n).then(() => heap.trims++).catch(() => {})
      .finally(() => inFlight = null);
  }, everyMs);
  Deno.unrefTimer(timer);
  return heap;
}
