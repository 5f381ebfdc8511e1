/**
 * Queries as the most liberal CMS would parse them, for the draft checks of the kinds
 * (sdk/drafts.ts compiles them). Detection is deliberately wider than the CMS's own
 * parsing: names in any case, percent-encoded (once or more), `+` for space, `;` as a
 * separator, an `=` hidden in an encoded name, repeated parameters.
 *
 * @module
 */

/** Why a visitor's request was refused: the parameter (or `path`) and a sentence. */
export type DraftRefusal = { param: string; message: string };

/** A query parameter as a liberal parser would see it: lower-case name, decoded value. */
export type CanonicalPair = { name: string; raw: string; value: string };

const MAX_DECODE_ROUNDS = 4;

/** Decodes `+` and percent escapes until stable (a double-encoded name is still found). */
export function decodeFully(s: string): string {
  let cur = s;
  for (let i = 0; i < MAX_DECODE_ROUNDS; i++) {
    let next = cur.replace(/\+/g, " ");
    try {
      next = decodeURIComponent(next);
    } catch {
      next = next.replace(/%([0-9a-f]{2})/gi, (_m, h) => String.fromCharCode(parseInt(h, 16)));
    }
    if (next === cur) break;
    cur = next;
  }
  return cur;
}

/** `Perspective[]`, ` perspective ` -> `perspective`. */
function canonicalName(decoded: string): string {
  return decoded.trim().toLowerCase().replace(/\[.*$/, "").trim();
}

/**
 * The pairs of a raw query (without `?`) as the most liberal server would read them:
 * split on `&` and `;`, decoded until stable, an `=` found inside a decoded name splits it.
 */
export function canonicalPairs(raw: string): CanonicalPair[] {
  const out: CanonicalPair[] = [];
  for (const piece of raw.split(/[&;]/)) {
    if (piece === "") continue;
    const eq = piece.indexOf("=");
    const rawName = eq < 0 ? piece : piece.slice(0, eq);
    let value = eq < 0 ? "" : decodeFully(piece.slice(eq + 1));
    let name = decodeFully(rawName);
    const hidden = name.indexOf("=");
    if (hidden >= 0) {
      value = name.slice(hidden + 1) + (eq < 0 ? "" : `=${value}`);
      name = name.slice(0, hidden);
    }
    out.push({ name: canonicalName(name), raw: rawName, value: value.trim() });
  }
  return out;
}

/** The visitor-facing parameter name for a message: as sent, decoded. */
export function shown(p: CanonicalPair): string {
  return decodeFully(p.raw).trim() || p.name;
}
