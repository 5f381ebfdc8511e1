/**
 * Which cache keys vary on request headers (origin cache mode, RFC 9111 §4.1): primary key
 * -> the normalised names (edge/cache/freshness.ts varyOf). A request looks up its variant
 * key once the primary key is known to vary. Bounded (VARY_ENTRIES, cleared when full): a
 * forgotten entry costs one origin fetch, which teaches it again.
 */
import { passedOnValue } from "../passed_on.ts";

export const VARY_ENTRIES = 20_000;
/** Longest request header value that keys a variant; a longer one is not cached. */
export const VARY_VALUE_MAX = 256;

export class VaryIndex {
  private names = new Map<string, string>();

  get(primary: string): string | undefined {
    return this.names.get(primary);
  }

  set(primary: string, vary: string): void {
    if (this.names.get(primary) === vary) return;
    if (this.names.size >= VARY_ENTRIES) this.names.clear();
    this.names.set(primary, vary);
  }

  delete(primary: string): void {
    this.names.delete(primary);
  }
}

/**
 * The variant key of `primary` for a request that sends the origin `forwarded` (lower-case
 * names -> values) and, with `req`, the fields it passes on (edge/passed_on.ts): null when a
 * value is too long to key.
 */
export function variantKey(
  primary: string,
  vary: string,
  forwarded: Readonly<Record<string, string>>,
  req?: Request,
): string | null {
  let key = primary + "|v";
  for (const name of vary.split(",")) {
    const v = forwarded[name] ?? (req === undefined ? "" : passedOnValue(req, name));
    if (v.length > VARY_VALUE_MAX) return null;
    key += `|${name}=${encodeURIComponent(v)}`;
  }
  return key;
}
