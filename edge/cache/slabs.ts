/**
 * Small cached bodies packed into shared 1 MiB slabs. A body in an ArrayBuffer of its own
 * costs ~200 bytes of native bookkeeping (V8's backing store record, malloc's header) and a
 * JSArrayBuffer on the heap, and 100,000 2 KB bodies between a miss's short-lived native
 * allocations left glibc's heap fragmented by ~60 MB (bench/ANALYSIS.md "Session 4").
 *
 * A slab is freed by the GC once no body in it is referenced. So that a few long-lived
 * entries cannot pin slabs that are otherwise dead, the packer tracks each slab's live
 * bytes and, when a full slab falls below a quarter live and stays there for
 * COMPACT_AFTER_RELEASES releases, moves its remaining bodies into the current slab. A
 * queued slab that has died is held until its turn (a few MiB). Responses copy the body
 * they are given, so moving one never changes what a response in flight sends.
 */
import type { Bytes, CachedObject } from "./object.ts";

export const SLAB_BYTES = 1024 * 1024;
/** Larger bodies keep a buffer of their own (the bookkeeping is noise next to them). */
export const PACK_MAX_BYTES = 32 * 1024;

/** One shared buffer and the objects whose bodies it holds. */
export type Slab = {
  buf: Bytes;
  used: number;
  live: number;
  objs: CachedObject[];
  /** Waiting in the packer's sparse queue. */
  queued?: boolean;
};

/**
 * Releases a slab stays sparse before its bodies move on. Under first-in, first-out eviction
 * (a cache at its bound taking unique misses) the oldest slab's last quarter is what the
 * next evictions take: moving it at once copied bodies that died a moment later, and the
 * copies left every new slab a quarter full of them (2 KB bodies churned through a 256 MiB
 * cache: 1.33× the live bytes in slabs; waiting: 1.05×, bench/ANALYSIS.md "Session 7").
 * Bodies that do outlive the wait (hot entries pinning a slab) still move.
 */
export const COMPACT_AFTER_RELEASES = 1024;

export class SlabPacker {
  private current: Slab | null = null;
  /** Slabs allocated since the last reset (tests and memory reports). */
  allocated = 0;
  /** Bodies released so far: the clock of the sparse queue. */
  private releases = 0;
  /** Slabs that fell below a quarter live, oldest first, each with the release it may move at. */
  private sparse: { slab: Slab; at: number }[] = [];
  private sparseHead = 0;

  /** Moves a small body into the current slab (the object then reads its body from there). */
  pack(obj: CachedObject): void {
    const len = obj.bodyLength;
    if (len === 0 || len > PACK_MAX_BYTES) return;
    this.release(obj);
    this.place(obj, len);
  }

  private place(obj: CachedObject, len: number): void {
    let s = this.current;
    if (s === null || s.used + len > SLAB_BYTES) {
      s = this.current = { buf: slabBuffer(), used: 0, live: 0, objs: [] };
      this.allocated++;
    }
    s.buf.set(obj.body, s.used);
    obj.placeIn(s, s.used);
    s.used += (len + 7) & ~7; // 8-byte aligned, like malloc
    s.live += len;
    s.objs.push(obj);
  }

  /** The object left the cache: its bytes no longer count, and a sparse slab is emptied. */
  release(obj: CachedObject): void {
    const s = obj.slab;
    if (!s) return;
    obj.detach();
    s.live -= obj.bodyLength;
    this.releases++;
    if (s !== this.current && !s.queued && sparse(s)) {
      s.queued = true;
      this.sparse.push({ slab: s, at: this.releases + COMPACT_AFTER_RELEASES });
    }
    this.compactDue();
  }

  /** Moves the bodies of slabs that stayed sparse for COMPACT_AFTER_RELEASES releases. */
  private compactDue(): void {
    while (this.sparseHead < this.sparse.length) {
      const { slab, at } = this.sparse[this.sparseHead];
      if (at > this.releases) break;
      this.sparseHead++;
      slab.queued = false;
      if (slab.live > 0 && sparse(slab)) {
        const keep = slab.objs.filter((o) => o.slab === slab);
        slab.objs = [];
        slab.live = 0;
        for (const o of keep) this.place(o, o.bodyLength);
      } else if (slab.live === 0) slab.objs = []; // dead: let its objects go now
    }
    if (this.sparseHead > 64 && this.sparseHead * 2 > this.sparse.length) {
      this.sparse = this.sparse.slice(this.sparseHead);
      this.sparseHead = 0;
    }
  }

  /** Forgets every slab (the cache was cleared); bodies still referenced stay valid. */
  reset(): void {
    this.current = null;
    this.allocated = 0;
    this.sparse = [];
    this.sparseHead = 0;
  }
}

/**
 * A slab's memory, mapped by V8 itself rather than taken from malloc: a resizable ArrayBuffer
 * is a page reservation of its own that goes back to the system when the slab is collected.
 * A plain 1 MiB buffer comes from glibc, which after the first such free keeps later ones in
 * its heap and never returns a dead slab between live ones (0 of 100 freed MiB returned, on
 * Deno 2.5 and 2.9 alike; bench/ANALYSIS.md "Session 7"). MALLOC_MMAP_THRESHOLD_ in the
 * start task fixed that for self-hosted instances only; Deno Deploy runs `deno run` without
 * it. This works wherever V8 runs (tests/start_flags_test.ts: 100 of 100 returned).
 */
export function slabBuffer(): Bytes {
  return new Uint8Array(new ArrayBuffer(SLAB_BYTES, { maxByteLength: SLAB_BYTES }));
}

/** Under a quarter of the slab's used bytes still live. */
function sparse(s: Slab): boolean {
  return s.live * 4 < s.used;
}
