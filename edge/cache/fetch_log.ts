/**
 * The last origin answer per primary cache key, on this instance: when, and its Cache-Status
 * (whether it was stored, for how long, or why not). Read by the "why isn't this URL cached?"
 * explanation (edge/explain.ts); written on the miss path only (one Map set per origin
 * fetch), never on a hit. Bounded (FETCH_LOG_ENTRIES, cleared when full, like VaryIndex): a
 * forgotten entry only means the explanation says the edge has not fetched the URL lately.
 */
const FETCH_LOG_ENTRIES = 20_000;

type FetchNote = {
  /** When the origin answered (ms since the epoch). */
  at: number;
  /** The full Cache-Status value of that answer (edge/cache_status.ts). */
  status: string;
};

export class FetchLog {
  private notes = new Map<string, FetchNote>();

  note(primary: string, at: number, status: string): void {
    if (this.notes.size >= FETCH_LOG_ENTRIES && !this.notes.has(primary)) this.notes.clear();
    this.notes.set(primary, { at, status });
  }

  get(primary: string): FetchNote | undefined {
    return this.notes.get(primary);
  }
}
