/**
 * The last origin answer per primary cache key, on this instance: when, and its Cache-Status
 * (whether it was stored, for how long, or why not). Read by the "why isn't this URL cached?"
 * explanation (edge/explain.ts); written on the miss path only (one Map set per origin
 * fetch), never on a hit. Bounded: past FETCH_LOG_ENTRIES the oldest note goes, so the
 * latest ones are always there; a forgotten entry only means the explanation says the edge
 * has not fetched the URL lately.
 */
/**
 * Notes kept at most. Each costs 220–460 heap bytes (key, note, status; Deno 2.9–2.5) that the
 * cache's bound does not count, and during a burst of misses every note outlives the young
 * generation: 20,000 (cleared when full) were 4.5–9 MiB of live heap, and V8 lets the old
 * generation grow to 3–4× its live size (bench/RESULTS.md "A full cache").
 */
export const FETCH_LOG_ENTRIES = 4096;

type FetchNote = {
  /** When the origin answered (ms since the epoch). */
  at: number;
  /** The full Cache-Status value of that answer (edge/cache_status.ts). */
  status: string;
};

export class FetchLog {
  private notes = new Map<string, FetchNote>();

  constructor(private readonly max = FETCH_LOG_ENTRIES) {}

  note(primary: string, at: number, status: string): void {
    // Re-set at the end of the insertion order: the Map's first key is the oldest note.
    this.notes.delete(primary);
    if (this.notes.size >= this.max) this.notes.delete(this.notes.keys().next().value!);
    this.notes.set(primary, { at, status });
  }

  get(primary: string): FetchNote | undefined {
    return this.notes.get(primary);
  }

  get size(): number {
    return this.notes.size;
  }
}
