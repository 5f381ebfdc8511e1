/**
 * Transformed values, keyed by hash of (model, rule id + version, input string), so an
 * entry edit re-transforms only the fields whose text changed. In memory, bounded by
 * entry count and characters, least recently used first out.
 */
import { sha256Hex } from "../crypto/mod.ts";

export class ValueCache {
  #map = new Map<string, string>();
  #chars = 0;
  constructor(readonly maxEntries = 20_000, readonly maxChars = 32 * 1024 * 1024) {}

  /** The cache key for one value under one rule version and model. */
  static key(model: string, ruleKey: string, input: string): Promise<string> {
    // JSON framing: no choice of parts can collide with another (unlike a separator).
    return sha256Hex(JSON.stringify([model, ruleKey, input]));
  }

  get(key: string): string | undefined {
    const v = this.#map.get(key);
    if (v !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, v); // refresh recency
    }
    return v;
  }

  set(key: string, value: string): void {
    const old = this.#map.get(key);
    if (old !== undefined) {
      this.#chars -= old.length;
      this.#map.delete(key);
    }
    this.#map.set(key, value);
    this.#chars += value.length;
    while (this.#map.size > this.maxEntries || this.#chars > this.maxChars) {
      const [k, v] = this.#map.entries().next().value!;
      this.#map.delete(k);
      this.#chars -= v.length;
    }
  }

  get size(): number {
    return this.#map.size;
  }
}
