/**
 * Joining a visitor-supplied path onto a configured upstream base. The result
 * must never leave the base: same origin, and a path inside the base path.
 * Anything that could be read two ways by some server on the way (dot segments
 * raw or percent-encoded, encoded slashes or backslashes, backslashes, control
 * characters, `@`-authority tricks via `//`) is refused rather than normalised,
 * and the joined URL is checked again after construction (defence in depth).
 */

/** Why a path was refused; surfaces as a 400 `Invalid path: <reason>`. */
export class BadPathError extends Error {
  override name = "BadPathError";
}

// %2e/%2E (dot), %2f (slash), %5c (backslash), %00 and other control bytes
const ENCODED_BAD = /%(?:2e|2f|5c|0[0-9a-f]|1[0-9a-f]|7f)/i;
// raw backslash, control characters, whitespace
// deno-lint-ignore no-control-regex -- matching control characters is the point
const RAW_BAD = /[\\\x00-\x20\x7f]/;

/**
 * Validates a path (starting with `/`, already percent-encoded as it arrived)
 * segment by segment. Returns it unchanged or throws BadPathError.
 */
export function checkPath(path: string): string {
  if (path.length === 0 || path.charCodeAt(0) !== 47 /* / */) {
    throw new BadPathError("must start with /");
  }
  if (RAW_BAD.test(path)) throw new BadPathError("contains a forbidden character");
  if (ENCODED_BAD.test(path)) throw new BadPathError("contains a forbidden escape");
  if (path.includes("//")) throw new BadPathError("contains an empty segment");
  // dot segments: "/." or "/.." as a whole segment
  let i = path.indexOf("/.");
  while (i !== -1) {
    const next = path.charCodeAt(i + 2);
    if (Number.isNaN(next) || next === 47 || next === 63 /* ? */) {
      throw new BadPathError("contains a dot segment");
    }
    if (next === 46) {
      const after = path.charCodeAt(i + 3);
      if (Number.isNaN(after) || after === 47 || after === 63) {
        throw new BadPathError("contains a dot segment");
      }
    }
    i = path.indexOf("/.", i + 1);
  }
  return path;
}

/** The refusal of a join whose parsed result left the base (the path itself passed). */
export const LEAVES_UPSTREAM = "leaves the upstream";

/** A parsed upstream base: origin plus a base path without a trailing slash. */
export type UpstreamBase = { origin: string; basePath: string; href: string };

const baseMemo = new Map<string, UpstreamBase>();

/** Parses (and memoises) a configured base such as `https://api.example.com/v1_1/demo`. */
export function parseBase(base: string): UpstreamBase {
  let b = baseMemo.get(base);
  if (!b) {
    const u = new URL(base);
    const basePath = u.pathname.replace(/\/+$/, "");
    b = { origin: u.origin, basePath, href: u.origin + basePath };
    if (baseMemo.size > 10_000) baseMemo.clear();
    baseMemo.set(base, b);
  }
  return b;
}

/**
 * Joins `path` (validated by checkPath) and an already-encoded query onto the
 * base. Throws BadPathError when the path is refused or when, against all
 * expectation, the parsed result would leave the base.
 */
export function joinUpstream(base: string, path: string, query: string): URL {
  const b = parseBase(base);
  checkPath(path);
  const url = new URL(b.href + path + (query ? `?${query}` : ""));
  if (url.origin !== b.origin || !url.pathname.startsWith(b.basePath + "/")) {
    throw new BadPathError(LEAVES_UPSTREAM);
  }
  return url;
}
