/**
 * Parses the head of an HTTP/1.1 response (RFC 9112 §4-§6) strictly: anything a
 * careful proxy must not guess at (bare CR or LF, obs-fold, space before a colon,
 * conflicting lengths, transfer codings other than chunked) is a ProtocolError,
 * which the edge answers as 502. Pure: bytes in, a description out.
 */

/** A response the edge refuses to interpret (answered 502, the connection closed). */
export class ProtocolError extends Error {
  override name = "ProtocolError";
}

/** How the body after the head is delimited (RFC 9112 §6.3). */
export type Framing =
  | { kind: "none" }
  | { kind: "length"; length: number }
  | { kind: "chunked" }
  | { kind: "close" };

export type ResponseHead = {
  status: number;
  /** Field lines in order, names lower-cased, values trimmed; repeated names kept apart. */
  headers: [string, string][];
  framing: Framing;
  /** The connection may carry another request once the body is read. */
  reusable: boolean;
};

/** Most field lines accepted in one head (hyper's default is 100). */
export const MAX_HEADER_LINES = 256;

/** RFC 9110 §5.6.2 tchar, by char code below 128. */
const TCHAR = new Uint8Array(128);
for (const ch of "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") {
  TCHAR[ch.charCodeAt(0)] = 1;
}

function isToken(s: string, end: number): boolean {
  for (let i = 0; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c > 127 || TCHAR[c] === 0) return false;
  }
  return true;
}

/**
 * NUL, CR or LF (a bare one: lines were split on CRLF): the head cannot be framed safely, a
 * 502. Any other control byte leaves the field readable; edge/http.ts drops such a field
 * (the one rule of lib/http/header_value.ts).
 */
function hasBadValueChar(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c === 0 || c === 10 || c === 13) return true;
  }
  return false;
}

/** The name lower-cased, without a new string when it already is (the usual case). */
function lowerName(line: string, end: number): string {
  for (let i = 0; i < end; i++) {
    const c = line.charCodeAt(i);
    if (c >= 65 && c <= 90) return line.slice(0, end).toLowerCase();
  }
  return line.slice(0, end);
}
const STATUS_LINE = /^HTTP\/1\.([01]) ([1-9]\d\d)(?: [^\0\r\n]*)?$/;
const LENGTH = /^\d{1,15}$/;

/**
 * `bytes` is the head without its final empty line (everything before CRLF CRLF).
 * `head`: the request was HEAD, so no body follows whatever the fields say.
 */
export function parseResponseHead(bytes: Uint8Array, head: boolean): ResponseHead {
  const lines = latin1(bytes).split("\r\n");
  const m = STATUS_LINE.exec(lines[0]);
  if (!m) throw new ProtocolError("malformed status line");
  const http10 = m[1] === "0";
  const status = Number(m[2]);
  if (lines.length - 1 > MAX_HEADER_LINES) throw new ProtocolError("too many header fields");
  const headers: [string, string][] = [];
  let length: string | null = null;
  let chunked = false;
  let transferEncoding = false;
  let close = http10;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    const c = line.indexOf(":");
    // RFC 9112 §5.1: whitespace before the colon must be rejected; a leading space is an
    // obs-fold, which a proxy may reject with 502 (§5.2).
    if (c <= 0 || !isToken(line, c)) throw new ProtocolError("malformed header field");
    const value = line.slice(c + 1).trim();
    if (hasBadValueChar(value)) throw new ProtocolError("malformed header value");
    const k = lowerName(line, c);
    headers.push([k, value]);
    if (k.length < 10 || k.length > 17) continue; // none of the names below
    if (k === "content-length") {
      // §6.3: a list of identical values is one length; anything else is unrecoverable.
      for (const part of value.split(",")) {
        const v = part.trim();
        if (!LENGTH.test(v) || (length !== null && v !== length)) {
          throw new ProtocolError("invalid content-length");
        }
        length = v;
      }
    } else if (k === "transfer-encoding") {
      transferEncoding = true;
      for (const part of value.split(",")) {
        const coding = part.trim().toLowerCase();
        if (coding === "") continue;
        // chunked must be the last coding, once; no other transfer coding is supported
        if (coding !== "chunked" || chunked) throw new ProtocolError("unsupported transfer coding");
        chunked = true;
      }
    } else if (k === "connection") {
      if (/(?:^|,)\s*close\s*(?:,|$)/i.test(value)) close = true;
      else if (http10 && /(?:^|,)\s*keep-alive\s*(?:,|$)/i.test(value)) close = false;
    }
  }
  if (transferEncoding && !chunked) throw new ProtocolError("unsupported transfer coding");
  let framing: Framing;
  if (head || status < 200 || status === 204 || status === 304) framing = { kind: "none" };
  // 205 must not have content (RFC 9110 §15.3.6); servers (Deno's among them) send it
  // without a length, which read-until-close would wait on until the upstream timeout.
  else if (status === 205 && !chunked && length === null) framing = { kind: "none" };
  else if (chunked) framing = { kind: "chunked" };
  else if (length !== null) framing = { kind: "length", length: Number(length) };
  else framing = { kind: "close" };
  // A length next to chunked may be a smuggling attempt: use chunked, never reuse (§6.1).
  const reusable = !close && framing.kind !== "close" && !(chunked && length !== null);
  return { status, headers, framing, reusable };
}

/**
 * Bytes as a string of the same code units (header fields are opaque octets; fetch's
 * ByteString does the same). ASCII, the usual case, goes through the fast decoder.
 */
const ascii = new TextDecoder();
export function latin1(bytes: Uint8Array): string {
  let plain = true;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] > 0x7f) {
      plain = false;
      break;
    }
  }
  if (plain) return ascii.decode(bytes);
  let s = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    s += String.fromCharCode(...bytes.subarray(i, i + 8192));
  }
  return s;
}
