/**
 * Field selectors for AI rules: a small subset of RFC 9535 JSONPath written without
 * the leading `$` - member names (`a.b`), `[*]` (every array element or object
 * member value) and non-negative array indexes (`items[0]`), in any nesting
 * (`sections[*].items[*].title`). Selectors are compiled once (rules are compiled
 * when saved and when the edge snapshot is read) and select string leaves only:
 * an AI rule rewrites text, never numbers, objects or structure.
 *
 * Everything outside this grammar (filters, slices, negative indexes, descendant
 * `..`, quoted names, whitespace) is refused with a SelectorError naming the position.
 */

import { isRawJson } from "./json.ts";

/** One step of a compiled selector. */
export type SelectorSegment =
  | { kind: "name"; name: string }
  | { kind: "index"; index: number }
  | { kind: "wildcard" };

export type CompiledSelector = { source: string; segments: SelectorSegment[] };

/** A selected string leaf: its location (keys and indexes from the root) and value. */
export type SelectedLeaf = { path: (string | number)[]; value: string };

/** Raised for a selector outside the grammar; `position` is the 0-based offset of the problem. */
export class SelectorError extends Error {
  override name = "SelectorError";
  constructor(readonly position: number, readonly reason: string) {
    super(`${reason} at ${position}`);
  }
}

/** RFC 9535 §2.5.1.1 member-name-shorthand: name-first = ALPHA / "_" / %x80-D7FF / %xE000-10FFFF. */
function isNameFirst(cp: number): boolean {
  return (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || cp === 0x5f ||
    (cp >= 0x80 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0x10ffff);
}
function isDigit(cp: number): boolean {
  return cp >= 0x30 && cp <= 0x39;
}

const MAX_SELECTOR_LENGTH = 512;
const MAX_SEGMENTS = 32;

/** Compiles a selector or throws SelectorError. */
export function parseSelector(source: string): CompiledSelector {
  if (typeof source !== "string" || source.length === 0) {
    throw new SelectorError(0, "empty selector");
  }
  if (source.length > MAX_SELECTOR_LENGTH) {
    throw new SelectorError(MAX_SELECTOR_LENGTH, `longer than ${MAX_SELECTOR_LENGTH} characters`);
  }
  const segments: SelectorSegment[] = [];
  let i = 0;
  const quote = (pos: number) => JSON.stringify(String.fromCodePoint(source.codePointAt(pos)!));

  const readName = (): string => {
    const start = i;
    const first = source.codePointAt(i);
    if (first === undefined) throw new SelectorError(i, "expected a field name");
    if (!isNameFirst(first) || (first >= 0xd800 && first <= 0xdfff)) {
      throw new SelectorError(i, `unexpected ${quote(i)}`);
    }
    i += first > 0xffff ? 2 : 1;
    for (;;) {
      const cp = source.codePointAt(i);
      if (cp === undefined || !(isNameFirst(cp) || isDigit(cp))) break;
      if (cp >= 0xd800 && cp <= 0xdfff) throw new SelectorError(i, "lone surrogate");
      i += cp > 0xffff ? 2 : 1;
    }
    return source.slice(start, i);
  };

  const readBracket = (): SelectorSegment => {
    i++; // "["
    if (source[i] === "*") {
      i++;
      if (source[i] !== "]") throw new SelectorError(i, expectedClose(source, i));
      i++;
      return { kind: "wildcard" };
    }
    const start = i;
    if (source[i] === "0") {
      i++;
    } else if (source[i] !== undefined && source[i] >= "1" && source[i] <= "9") {
      while (source[i] !== undefined && source[i] >= "0" && source[i] <= "9") i++;
    } else {
      throw new SelectorError(
        i,
        source[i] === undefined ? "expected an index or *" : `unexpected ${quote(i)}`,
      );
    }
    const index = Number(source.slice(start, i));
    // RFC 9535 §2.1: integers are limited to the I-JSON range.
    if (!Number.isSafeInteger(index)) throw new SelectorError(start, "index out of range");
    if (source[i] !== "]") throw new SelectorError(i, expectedClose(source, i));
    i++;
    return { kind: "index", index };
  };

  // First segment: a bare name or a bracket (for responses that are arrays).
  if (source[0] === "[") segments.push(readBracket());
  else segments.push({ kind: "name", name: readName() });

  while (i < source.length) {
    if (segments.length >= MAX_SEGMENTS) {
      throw new SelectorError(i, `more than ${MAX_SEGMENTS} segments`);
    }
    const ch = source[i];
    if (ch === ".") {
      i++;
      segments.push({ kind: "name", name: readName() });
    } else if (ch === "[") {
      segments.push(readBracket());
    } else {
      throw new SelectorError(i, `unexpected ${quote(i)}`);
    }
  }
  return { source, segments };
}

function expectedClose(source: string, i: number): string {
  return source[i] === undefined
    ? 'expected "]"'
    : `unexpected ${JSON.stringify(source[i])}, expected "]"`;
}

/** Returns the problem with a selector as "<reason> at <position>", or null when valid. */
export function selectorProblem(source: string): string | null {
  try {
    parseSelector(source);
    return null;
  } catch (e) {
    if (e instanceof SelectorError) return e.message;
    throw e;
  }
}

/**
 * All nodes the selector reaches, in document order (RFC 9535 §2.3: wildcard
 * yields array elements in order and object member values in insertion order).
 */
export function selectNodes(
  doc: unknown,
  sel: CompiledSelector,
): { path: (string | number)[]; value: unknown }[] {
  let nodes: { path: (string | number)[]; value: unknown }[] = [{ path: [], value: doc }];
  for (const seg of sel.segments) {
    const next: typeof nodes = [];
    for (const n of nodes) {
      const v = n.value;
      if (seg.kind === "name") {
        if (isObject(v) && Object.hasOwn(v, seg.name)) {
          next.push({ path: [...n.path, seg.name], value: v[seg.name] });
        }
      } else if (seg.kind === "index") {
        if (Array.isArray(v) && seg.index < v.length) {
          next.push({ path: [...n.path, seg.index], value: v[seg.index] });
        }
      } else if (Array.isArray(v)) {
        v.forEach((x, k) => next.push({ path: [...n.path, k], value: x }));
      } else if (isObject(v)) {
        for (const k of Object.keys(v)) next.push({ path: [...n.path, k], value: v[k] });
      }
    }
    nodes = next;
    if (nodes.length === 0) break;
  }
  return nodes;
}

/** The string leaves the selector reaches; numbers, booleans, null, arrays and objects are skipped. */
export function selectStrings(doc: unknown, sel: CompiledSelector): SelectedLeaf[] {
  return selectNodes(doc, sel).filter((n): n is SelectedLeaf => typeof n.value === "string");
}

/** Writes `value` at `path` inside `doc` (which must already contain that path). */
export function setAtPath(doc: unknown, path: (string | number)[], value: string): void {
  if (path.length === 0) return;
  let cur = doc as Record<string | number, unknown>;
  for (let k = 0; k < path.length - 1; k++) cur = cur[path[k]] as Record<string | number, unknown>;
  cur[path[path.length - 1]] = value;
}

/** Renders a path as a selector-like string (`items[0].title`) for run logs. */
export function formatPath(path: (string | number)[]): string {
  let out = "";
  for (const p of path) {
    out += typeof p === "number" ? `[${p}]` : out === "" ? p : `.${p}`;
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !isRawJson(v);
}
