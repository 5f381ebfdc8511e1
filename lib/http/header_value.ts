/**
 * The one rule for every header value the program emits, the management app's and the
 * edge's, upstream ones included (docs/decisions.md "Header values"). RFC 9110 §5.5: a field
 * value is visible ASCII, obs-text (0x80-0xFF), SP and HTAB. JavaScript's `Headers` accepts
 * every other control byte too (0x01-0x08, 0x0B, 0x0C, 0x0E-0x1F, 0x7F), and Deno 2.9's
 * HTTP/1 writer panics on one: the process ends, every tenant with it (docs/operations.md
 * "A header value that ends the process"). So a value breaking the rule never reaches the
 * runtime: an upstream one is dropped where it enters (edge/http.ts, the cache), one of ours
 * is answered 400 by the last guard (lib/http/response_guard.ts).
 */

/** True when `v` may be sent as a field value: no control byte but HTAB, nothing past 0xFF. */
export function isSafeHeaderValue(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 0x20 ? c !== 0x09 : c === 0x7f || c > 0xff) return false;
  }
  return true;
}

/** `pairs` without those whose value breaks the rule: the same array when none does. */
export function safeHeaderPairs<T extends readonly [string, string]>(pairs: T[]): T[] {
  for (const p of pairs) {
    if (!isSafeHeaderValue(p[1])) return pairs.filter((q) => isSafeHeaderValue(q[1]));
  }
  return pairs;
}

/** The names of the headers of `h` whose value breaks the rule (empty: none). */
export function unsafeHeaderNames(h: Headers): string[] {
  const bad: string[] = [];
  // forEach, not for...of: Headers' iterator re-sorts the list on every step
  h.forEach((v, k) => {
    if (!isSafeHeaderValue(v)) bad.push(k);
  });
  return bad;
}

const CHECKED = Symbol("header values checked");
type Marked = Response & { [CHECKED]?: true };

/**
 * Marks a Response whose headers are known to keep the rule, so the last guard does not scan
 * them again: a cache hit's clone of a template that was scanned once when it was built.
 */
export function markChecked(res: Response): Response {
  (res as Marked)[CHECKED] = true;
  return res;
}

/** True for a Response marked by markChecked(). */
export function isMarkedChecked(res: Response): boolean {
  return (res as Marked)[CHECKED] === true;
}

/** Scans `res` once (a template a hit clones): marked when its headers keep the rule. */
export function checkOnce(res: Response): Response {
  return unsafeHeaderNames(res.headers).length === 0 ? markChecked(res) : res;
}
