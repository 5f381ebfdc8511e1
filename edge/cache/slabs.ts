/**
 * Small cached bodies packed into shared 1 MiB slabs. A body in an ArrayBuffer of its own
 * costs ~200 bytes of native bookkeeping (V8's backing store record, malloc's header) and a
 * JSArrayBuffer on the heap, and 100,000 2 KB bodies between a miss's short-lived native
 * allocations left glibc's heap fragmented by ~60 MB (bench/ANALYSIS.md "Misses, the header set, transformed hits").
 *
 * The packer tracks each slab's live bytes. A slab whose last body leaves is reused for new
 * bodies at once (SlabPacker), not left for V8 to collect. So that a few long-lived entries
 * cannot pin slabs that are otherwise dead, a full slab that falls below a quarter live and
 * stays there for COMPACT_AFTER_RELEASES releases has its remaining bodies moved into the
 * current slab, and is reused. Responses copy the body they are given, so moving a body or
 * reusing its slab never changes what a response in flight sends.
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
  queued: boolean;
  /**
   * Its buffer went back to the packer and now holds other bodies: an object released from
   * it can no longer read its body (edge/cache/object.ts `readable`).
   */
  gone: boolean;
};

/**
 * Releases a slab stays sparse before its bodies move on. Under first-in, first-out eviction
 * (a cache at its bound taking unique misses) the oldest slab's last quarter is what the
 * next evictions take: moving it at once copied bodies that died a moment later, and the
 * copies left every new slab a quarter full of them (2 KB bodies churned through a 256 MiB
 * cache: 1.33× the live bytes in slabs; waiting: 1.05×, bench/ANALYSIS.md "A fair miss reference, churn at the bound, Zipf").
 * Bodies that do outlive the wait (hot entries pinning a slab) still move.
 */
export const COMPACT_AFTER_RELEASES = 1024;

/**
 * Empty slabs kept for reuse at most. Under churn one slab empties as the next one is needed,
 * so a few suffice; more would hold memory the cache gave up (the memory guard's shrink).
 */
export const MAX_FREE_SLABS = 4;

/**
 * Packs small bodies into slabs and recycles them: a slab whose last body leaves the cache
 * goes back to the packer and is the next one filled. So the slabs' memory is the live
 * bodies plus the current slab and a few free ones, whatever the churn, and nothing waits
 * for V8 to collect a dead slab (when it did, a cache at its bound taking misses held up to
 * twice its bound in dead slabs: bench/RESULTS.md "A full cache").
 *
 * An object released from a slab keeps reading its body from there until the slab is reused;
 * after that its body is gone (`readable` false, reading it throws). Code that holds a
 * cached object across an await checks `readable` before reading the body (edge/cache/
 * through.ts, edge/respond.ts) or copies what it needs before it awaits.
 */
export class SlabPacker {
  private current: Slab | null = null;
  /** Slab buffers allocated since the last reset (tests and memory reports). */
  allocated = 0;
  /** Slabs holding bodies or free for reuse now (each SLAB_BYTES). */
  held = 0;
  /** Bodies released so far: the clock of the sparse queue. */
  private releases = 0;
  /** Slabs that fell below a quarter live, oldest first, each with the release it may move at. */
  private sparse: { slab: Slab; at: number }[] = [];
  private sparseHead = 0;
  /** Empty slabs, reused before a new buffer is allocated. */
  private free: Slab[] = [];

  /** Moves a small body into the current slab (the object then reads its body from there). */
  pack(obj: CachedObject): void {
    const len = obj.bodyLength;
    if (len === 0 || len > PACK_MAX_BYTES) return;
    const body = obj.body; // read before a release can recycle its slab
    this.release(obj);
    this.place(obj, body);
  }

  private place(obj: CachedObject, body: Bytes): void {
    const len = body.byteLength;
    let s = this.current;
    if (s === null || s.used + len > SLAB_BYTES) {
      if (s !== null && s.live === 0) this.retire(s);
      s = this.current = this.take();
    }
    s.buf.set(body, s.used);
    obj.placeIn(s, s.used);
    s.used += (len + 7) & ~7; // 8-byte aligned, like malloc
    s.live += len;
    s.objs.push(obj);
  }

  /** A free slab's buffer under a new record (the old one is gone), else a new buffer. */
  private take(): Slab {
    const old = this.free.pop();
    if (old !== undefined) {
      old.gone = true;
      return { buf: old.buf, used: 0, live: 0, objs: [], queued: false, gone: false };
    }
    this.allocated++;
    this.held++;
    return { buf: slabBuffer(), used: 0, live: 0, objs: [], queued: false, gone: false };
  }

  /** An empty slab goes back to the free list (or, when that is full, to the collector). */
  private retire(s: Slab): void {
    s.objs = [];
    if (this.free.length < MAX_FREE_SLABS) this.free.push(s);
    else this.held--;
  }

  /** The object left the cache: its bytes no longer count, and a sparse slab is emptied. */
  release(obj: CachedObject): void {
    const s = obj.slab;
    if (!s) return;
    obj.detach();
    s.live -= obj.bodyLength;
    this.releases++;
    if (s !== this.current) {
      if (s.live === 0) {
        s.queued = false; // its entry in the sparse queue is void
        this.retire(s);
      } else if (!s.queued && sparse(s)) {
        s.queued = true;
        this.sparse.push({ slab: s, at: this.releases + COMPACT_AFTER_RELEASES });
      }
    }
    this.compactDue();
  }

  /** Moves the bodies of slabs that stayed sparse for COMPACT_AFTER_RELEASES releases. */
  private compactDue(): void {
    while (this.sparseHead < this.sparse.length) {
      const { slab, at } = this.sparse[this.sparseHead];
      if (at > this.releases) break;
      this.sparseHead++;
      if (!slab.queued) continue; // emptied (and retired) while it waited
      slab.queued = false;
      const keep = slab.objs.filter((o) => o.slab === slab);
      slab.objs = [];
      slab.live = 0;
      for (const o of keep) this.place(o, o.body);
      this.retire(slab);
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
    this.held = 0;
    this.sparse = [];
    this.sparseHead = 0;
    this.free = [];
  }
}

/**
 * A slab's memory, mapped by V8 itself rather than taken from malloc: a resizable ArrayBuffer
 * is a page reservation of its own that goes back to the system when the slab is collected.
 * A plain 1 MiB buffer comes from glibc, which after the first such free keeps later ones in
 * its heap and never returns a dead slab between live ones (0 of 100 freed MiB returned, on
 * Deno 2.5 and 2.9 alike; bench/ANALYSIS.md "A fair miss reference, churn at the bound, Zipf"). MALLOC_MMAP_THRESHOLD_ in the
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
