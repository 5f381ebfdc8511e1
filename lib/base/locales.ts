/**
 * Accept-Language normalised to a tenant's locale list (docs/decisions.md "Website
 * locales"): RFC 4647 §3.4 lookup over the visitor's language ranges in q-value order
 * (RFC 9110 §12.5.4), so a page varies on at most as many values as the tenant has locales.
 * Pure, shared by the tenant schema and the edge.
 */

/** A BCP 47 tag as a tenant lists it: a language, then subtags (`de`, `pt-BR`, `zh-Hant-TW`). */
export const LOCALE_TAG = /^[a-z]{2,3}(?:-[a-z0-9]{1,8})*$/i;

/** Locales a tenant may list. */
export const MAX_LOCALES = 30;

/** `tag` in its conventional case: language lower, script title, region upper (`pt-BR`). */
export function canonicalLocale(tag: string): string {
  return tag.split("-").map((s, i) => {
    if (i === 0) return s.toLowerCase();
    if (s.length === 2 && /^[a-z]+$/i.test(s)) return s.toUpperCase();
    if (s.length === 4 && /^[a-z]+$/i.test(s)) return s[0].toUpperCase() + s.slice(1).toLowerCase();
    return s.toLowerCase();
  }).join("-");
}

/** The language ranges of an Accept-Language value, highest q first (stable), q=0 dropped. */
function ranges(header: string): string[] {
  const out: { range: string; q: number; i: number }[] = [];
  let i = 0;
  for (const part of header.split(",")) {
    const [r, ...params] = part.split(";");
    const range = r.trim().toLowerCase();
    if (range === "" || !/^(?:\*|[a-z]{1,8}(?:-[a-z0-9]{1,8})*)$/.test(range)) continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p);
      if (m) q = Math.min(1, Number(m[1]));
    }
    if (q > 0) out.push({ range, q, i: i++ });
  }
  out.sort((a, b) => b.q - a.q || a.i - b.i);
  return out.map((x) => x.range);
}

/** Longest memoised headers and their number, per compiled list (cleared when full). */
const MEMO_ENTRIES = 2048;
const MEMO_MAX_KEY = 256;

/**
 * The lookup for one locale list: an Accept-Language value (or null) -> the locale to serve.
 * Each range is tried whole, then truncated from the end (a single-letter subtag goes with the
 * one after it), against the list case-insensitively; the first match wins; `*`, no value
 * or no match -> the first locale (the default). Memoised per header value (bounded).
 */
export function compileLocaleLookup(locales: readonly string[]): (header: string | null) => string {
  const byLower = new Map(locales.map((l) => [l.toLowerCase(), l]));
  const fallback = locales[0];
  const memo = new Map<string, string>();
  const look = (header: string): string => {
    for (const range of ranges(header)) {
      if (range === "*") return fallback;
      let tag = range;
      while (tag !== "") {
        const hit = byLower.get(tag);
        if (hit !== undefined) return hit;
        let cut = tag.lastIndexOf("-");
        if (cut > 1 && tag[cut - 2] === "-") cut -= 2; // drop a singleton with its subtag
        tag = cut === -1 ? "" : tag.slice(0, cut);
      }
    }
    return fallback;
  };
  return (header) => {
    if (header === null || header === "") return fallback;
    let v = memo.get(header);
    if (v === undefined) {
      v = look(header);
      if (header.length <= MEMO_MAX_KEY) {
        if (memo.size >= MEMO_ENTRIES) memo.clear();
        memo.set(header, v);
      }
    }
    return v;
  };
}
