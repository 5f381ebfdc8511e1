/**
 * A bounded in-memory queue written to the database in batches off the request path
 * (run log, stored outputs): items queued in one event-loop turn go in one write;
 * `flush()` waits for everything queued so far. Full (the database is down) means dropped.
 */
export class WriteQueue<T> {
  #queue: T[] = [];
  #flushing: Promise<void> = Promise.resolve();
  #scheduled = false;
  dropped = 0;

  constructor(readonly max: number, readonly write: (batch: T[]) => Promise<void>) {}

  push(item: T): boolean {
    if (this.#queue.length >= this.max) {
      this.dropped++; // back-pressure: never grow without bound while Postgres is down
      return false;
    }
    this.#queue.push(item);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setTimeout(() => {
        this.#scheduled = false;
        void this.flush();
      }, 0);
    }
    return true;
  }

  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(async () => {
      const batch = this.#queue.splice(0);
      if (batch.length) await this.write(batch);
    });
    return this.#flushing;
  }
}
