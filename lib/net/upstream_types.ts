/**
 * What an upstream request returns, whichever client made it (edge/http1/client.ts, or
 * edge/upstream_fetch.ts): a buffered body, a stream for a body too large to cache, or
 * a failure the edge answers as 502/504. Here in lib/net because the edge and the guarded
 * fetch of user-supplied URLs (lib/net/guarded_fetch.ts) share these clients.
 */
import type { ErrorCode } from "../errors.ts";

/** Bytes backed by a plain ArrayBuffer (edge/cache/object.ts Bytes). */
type Bytes = Uint8Array<ArrayBuffer>;

/** A failure: 502/504 from the fetch, or a status the proxy decided (e.g. 403 type refused). */
export type UpstreamFailure = {
  kind: "error";
  status: number;
  code: ErrorCode;
  message: string;
  /** The origin's own status when it answered one the edge does not pass on (a 5xx). */
  originStatus?: number;
  /** That answer's headers and body, passed on instead of the edge's error (origin mode). */
  answer?: { headers: [string, string][]; body: Bytes };
};

/**
 * A fetched response: fully buffered, or streaming because it outgrew the bound.
 * `headers` are filtered (edge/http.ts filterHeaderPairs) and bodies decoded.
 * `setCookie`: the upstream sent Set-Cookie (dropped from `headers`; edge/cdn.ts).
 */
export type UpstreamResult =
  | {
    kind: "buffered";
    status: number;
    headers: [string, string][];
    body: Bytes;
    setCookie?: boolean;
  }
  | UpstreamStream
  | UpstreamFailure;

/** A body too large to buffer, handed on as a stream (`length` when declared). */
export type UpstreamStream = {
  kind: "stream";
  status: number;
  headers: [string, string][];
  body: ReadableStream<Uint8Array> | null;
  length: number | null;
};

/** One request as a client sees it (the SSRF check has already passed). */
export type UpstreamCall = {
  url: URL;
  method: "GET" | "HEAD";
  headers: [string, string][];
  /** Bytes buffered before switching to streaming. */
  maxBuffer: number;
  /** Covers connecting, the head and a buffered body; a streamed body runs without it. */
  timeoutMs: number;
  /**
   * The address that passed the SSRF check (lib/net/ssrf.ts checkedAddress): connect there, keeping the
   * URL's host for Host and TLS (SNI, certificate), instead of resolving the name again
   * (DNS rebinding). Absent when private upstreams are allowed (no check ran).
   */
  address?: string;
};

/** Makes upstream requests; never throws: failures come back as results. */
export type UpstreamClient = {
  request(call: UpstreamCall): Promise<UpstreamResult>;
  /** Closes idle connections (shutdown, tests). */
  close(): void;
};

const failure = (
  status: number,
  message: string,
  code: ErrorCode = "upstream_error",
): UpstreamFailure => ({
  kind: "error",
  status,
  code,
  message,
});

export const TIMED_OUT = failure(504, "Upstream timed out", "upstream_timeout");
export const UNREACHABLE = failure(502, "Upstream unreachable");
export const CLOSED_EARLY = failure(502, "Upstream closed early");
export const MALFORMED = failure(502, "Upstream sent a malformed response");
