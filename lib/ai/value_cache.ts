/**
 * Transformed values, keyed by hash of (model, rule id + version, input string), so an
 * entry edit re-transforms only the fields whose text changed. In memory, bounded by
 * entry count and characters, least recently used first out (the edge's ByteLru).
 */
import { sha256Hex } from "../crypto/mod.ts";
import { ByteLru, LruEntry } from "../cache/lru.ts";

/** One transformed value, charged its length in characters. */
class Entry extends LruEntry {
  constructor(readonly value: string) {
    super(value.length);
  }
}

export class ValueCache {
  #lru: ByteLru<Entry>;
  constructor(readonly maxEntries = 20_000, readonly maxChars = 32 * 1024 * 1024) {
    this.#lru = new ByteLru<Entry>(maxChars, undefined, maxEntries);
  }

  /** The cache key for one value under one rule version and model. */
  static key(model: string, ruleKey: string, input: string): Promise<string> {
    // JSON framing: no choice of parts can collide with another (unlike a separator).
    return sha256Hex(JSON.stringify([model, ruleKey, input]));
  }

  get(key: string): string | undefined {
    return this.#lru.get(key)?.value;
  }

  set(key: string, value: string): void {
    this.#lru.set(key, new Entry(value));
  }

  get size(): number {
    return this.#lru.count;
  }
}
