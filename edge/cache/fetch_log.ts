/**
 * The last origin answer per primary cache key, on this instance: when, and its Cache-Status
 * (whether it was stored, for how long, or why not). Read by the "why isn't this URL cached?"
 * explanation (edge/explain.ts); written on the miss path only (one Map set per origin
 * fetch), never on a hit. Bounded: past FETCH_LOG_ENTRIES the oldest note goes, so the
 * latest ones are always there; a forgotten entry only means the explanation says the edge
 * has not fetched the URL lately.
 */
/**
 * Notes kept at most. Each costs 220-460 heap bytes (key, note, status; Deno 2.9-2.5) that the
 * cache's bound does not count, and during a burst of misses every note outlives the young
 * generation: 20,000 (cleared when full) were 4.5-9 MiB of live heap, and V8 lets the old
 * generation grow to 3-4× its live size (bench/RESULTS.md "A full cache").
 */
export const FETCH_LOG_ENTRIES = 4096;

type FetchNote = {
  /** When the origin answered (ms since the epoch). */
  at: number;
  /** The full Cache-Status value of that answer (edge/cache_status.ts). */
  status: string;
};

/** Distinct statuses kept as one string each (cleared when full). */
const STATUSES_MAX = 256;

export class FetchLog {
  private notes = new Map<string, FetchNote>();
  /**
   * Each status value once, as a flat string: a miss builds its Cache-Status by concatenation
   * (a tree of string pieces per note), and most misses share a few values.
   */
  private statuses = new Map<string, string>();

  constructor(private readonly max = FETCH_LOG_ENTRIES) {}

  /**
   * `primary`: pass the memory tier's copy of the key when the answer was stored (one string
   * for both), else the key as built.
   */
  note(primary: string, at: number, status: string): void {
    let s = this.statuses.get(status);
    if (s === undefined) {
      if (this.statuses.size >= STATUSES_MAX) this.statuses.clear();
      s = JSON.parse(JSON.stringify(status)) as string;
      this.statuses.set(s, s);
    }
    // Re-set at the end of the insertion order: the Map's first key is the oldest note.
    this.notes.delete(primary);
    if (this.notes.size >= this.max) this.notes.delete(this.notes.keys().next().value!);
    this.notes.set(primary, { at, status: s });
  }

  get(primary: string): FetchNote | undefined {
    return this.notes.get(primary);
  }

  get size(): number {
    return this.notes.size;
  }
}
