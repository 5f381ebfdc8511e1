/**
 * Byte ranges served from a whole cached object (RFC 9110 §14), following
 * nginx's choices where the RFC leaves room (tests/fixtures/corpora/range-cases-nginx.json):
 * a syntactically invalid header is 416, unsatisfiable members are dropped,
 * several ranges give multipart/byteranges, and a set of ranges whose total
 * exceeds the representation is ignored (full 200) as a denial-of-service guard.
 */
import type { Bytes, CachedObject } from "./cache/store.ts";

export type RangePlan =
  | { kind: "full" }
  | { kind: "unsatisfiable" }
  | { kind: "ranges"; ranges: Array<[number, number]> };

const SPEC = /^\s*(\d*)\s*-\s*(\d*)\s*$/;

/** Parses a Range header against a representation of `size` bytes. */
export function planRange(header: string, size: number): RangePlan {
  const eq = header.indexOf("=");
  if (eq === -1) return { kind: "unsatisfiable" };
  // Only the bytes unit is known; RFC 9110 §14.2: ignore other units.
  if (header.slice(0, eq).trim().toLowerCase() !== "bytes") return { kind: "full" };
  const parts = header.slice(eq + 1).split(",");
  const ranges: Array<[number, number]> = [];
  let total = 0;
  for (const part of parts) {
    const m = SPEC.exec(part);
    if (!m || (m[1] === "" && m[2] === "")) return { kind: "unsatisfiable" };
    let start: number;
    let end: number;
    if (m[1] === "") {
      // suffix range: the last N bytes
      const n = Number(m[2]);
      if (n === 0) continue;
      start = Math.max(0, size - n);
      end = size - 1;
    } else {
      start = Number(m[1]);
      end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
      if (m[2] !== "" && Number(m[2]) < start) return { kind: "unsatisfiable" };
      if (start >= size) continue; // unsatisfiable member: dropped
    }
    ranges.push([start, end]);
    total += end - start + 1;
  }
  if (ranges.length === 0) return { kind: "unsatisfiable" };
  if (total > size) return { kind: "full" };
  return { kind: "ranges", ranges };
}

/**
 * RFC 9110 §13.1.5: with If-Range the range applies only when the validator
 * still matches (a strong ETag, or the exact Last-Modified date); else full 200.
 */
export function ifRangeMatches(ifRange: string | null, obj: CachedObject): boolean {
  if (ifRange === null) return true;
  const v = ifRange.trim();
  if (v.startsWith('"') || v.startsWith("W/")) {
    return obj.etag !== null && !v.startsWith("W/") && !obj.etag.startsWith("W/") &&
      v === obj.etag;
  }
  return obj.lastModified !== null && v === obj.lastModified;
}

let boundaryCounter = 0;

/** A partial response for the plan: 206 single or multipart, or 416. */
export function rangeResponseParts(
  obj: CachedObject,
  plan: Exclude<RangePlan, { kind: "full" }>,
): { status: number; headers: [string, string][]; body: Bytes } {
  const size = obj.body.byteLength;
  const base = obj.headers.filter((h) => h[0] !== "content-type" && h[0] !== "content-range");
  if (plan.kind === "unsatisfiable") {
    return {
      status: 416,
      headers: [...base, ["content-range", `bytes */${size}`]],
      body: new Uint8Array(0),
    };
  }
  if (plan.ranges.length === 1) {
    const [s, e] = plan.ranges[0];
    return {
      status: 206,
      headers: [
        ...base,
        ["content-type", obj.contentType || "application/octet-stream"],
        ["content-range", `bytes ${s}-${e}/${size}`],
      ],
      body: obj.body.subarray(s, e + 1),
    };
  }
  const boundary = `cachely${(++boundaryCounter).toString(36).padStart(10, "0")}`;
  const enc = new TextEncoder();
  const pieces: Uint8Array[] = [];
  for (const [s, e] of plan.ranges) {
    pieces.push(enc.encode(
      `\r\n--${boundary}\r\n` +
        (obj.contentType ? `Content-Type: ${obj.contentType}\r\n` : "") +
        `Content-Range: bytes ${s}-${e}/${size}\r\n\r\n`,
    ));
    pieces.push(obj.body.subarray(s, e + 1));
  }
  pieces.push(enc.encode(`\r\n--${boundary}--\r\n`));
  const len = pieces.reduce((n, p) => n + p.byteLength, 0);
  const body = new Uint8Array(len);
  let off = 0;
  for (const p of pieces) {
    body.set(p, off);
    off += p.byteLength;
  }
  return {
    status: 206,
    headers: [...base, ["content-type", `multipart/byteranges; boundary=${boundary}`]],
    body,
  };
}
