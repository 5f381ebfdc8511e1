/**
 * Which keys were requested before, approximately: the Web Cache tier's admission
 * (edge/cache/store.ts; docs/decisions.md "Second tier and snapshot memo"). A Bloom filter
 * of 2^21 bits (256 KiB, outside V8's heap) with two probes, cleared after 2^18 keys, as
 * TinyLFU's doorkeeper: nothing per key on the heap. A false "seen" (about 5 % just before a
 * clear) only puts a key into the tier on its first request, as every key was before.
 */
const BITS = 1 << 21;
const MASK = BITS - 1;
const CLEAR_AFTER = 1 << 18;

export class Doorkeeper {
  private bits = new Int32Array(BITS >>> 5);
  private added = 0;

  /** True when `key` was (probably) passed before, since the last clear; records it. */
  seen(key: string): boolean {
    // Two FNV-1a hashes with different offsets, in one pass over the key.
    let a = 0x811c9dc5 | 0;
    let b = 0x050c5d1f | 0;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x01000193);
    }
    const i = (a ^ (a >>> 15)) & MASK;
    const j = (b ^ (b >>> 13)) & MASK;
    const bits = this.bits;
    const had = (bits[i >>> 5] & (1 << (i & 31))) !== 0 &&
      (bits[j >>> 5] & (1 << (j & 31))) !== 0;
    if (had) return true;
    if (++this.added > CLEAR_AFTER) {
      bits.fill(0);
      this.added = 1;
    }
    bits[i >>> 5] |= 1 << (i & 31);
    bits[j >>> 5] |= 1 << (j & 31);
    return false;
  }
}
