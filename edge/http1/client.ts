/**
 * The edge's upstream HTTP/1.1 client over Deno.connect / Deno.connectTls, with a
 * keep-alive pool. It exists for speed: a 2 KB GET through fetch() cost ~130 µs of CPU
 * (~165 µs with the AbortSignal a timeout needs), through this client ~50 µs
 * (bench/ANALYSIS.md "An upstream client of our own, an honest video reference, the header read"), and a miss is mostly that request.
 *
 * What it does: GET/HEAD only, one request per connection at a time, no redirects
 * followed, Content-Length / chunked / close-delimited bodies, gzip/deflate/br decoded
 * (as fetch does), 1xx skipped. A response it cannot interpret safely is a 502; a
 * request on a kept-alive connection the server had closed is retried once on a new
 * one (GET and HEAD are idempotent). Deadlines are checked by one shared timer per
 * client rather than a timer and AbortSignal per request.
 */
import { parseResponseHead, ProtocolError, type ResponseHead } from "./head.ts";
import { Wire } from "./wire.ts";
import { ConnectionPool, type PoolOptions } from "./pool.ts";
import { type BodySource, bodySource } from "./body.ts";
import {
  ACCEPT_ENCODING,
  type Coding,
  codingOf,
  decodeStream,
  decodeWhole,
  TooLarge,
} from "./decode.ts";
import { filterHeaderPairs } from "../http.ts";
import {
  CLOSED_EARLY,
  MALFORMED,
  TIMED_OUT,
  UNREACHABLE,
  type UpstreamCall,
  type UpstreamClient,
  type UpstreamResult,
} from "../../lib/net/upstream_types.ts";
import { type Bytes, concatBytes } from "../cache/store.ts";

export type Http1Options = Partial<PoolOptions> & {
  /**
   * Opens a connection for a URL, to `address` when given (the SSRF-checked one); tests
   * map provider hosts to loopback servers.
   */
  connect?: (url: URL, address?: string) => Promise<Deno.Conn>;
  /** Extra root certificates (PEM) for https (the default connect; tests with their own CA). */
  caCerts?: string[];
  /** Bounds connecting alone (a timeout), within the call's deadline. */
  connectTimeoutMs?: number;
  /**
   * Every response header as received, instead of the edge's filtered set (x-cachely-*,
   * Set-Cookie, ...): the guarded fetch of user-supplied URLs (lib/net/guarded_fetch.ts).
   */
  keepHeaders?: boolean;
};

/** Bytes read per piece of a streamed body: big pieces mean fewer writes downstream. */
const STREAM_PIECE = 1024 * 1024;
/** Bytes read per piece while buffering a body of unknown length. */
const BUFFER_PIECE = 64 * 1024;
const TICK_MS = 50;

const enc = new TextEncoder();

// Long: a closure over one connection pool and one deadline timer; request, exchange and finish are
// its inner functions (each under 60 lines) and share them.
export function createHttp1Client(opts: Http1Options = {}): UpstreamClient {
  const pool = new ConnectionPool({
    idleMs: opts.idleMs ?? 4_000,
    maxIdlePerOrigin: opts.maxIdlePerOrigin ?? 256,
    maxIdle: opts.maxIdle ?? 4_096,
  });
  const open = opts.connect ??
    (opts.caCerts
      ? (url: URL, address?: string) => connectTo(url, address, opts.caCerts)
      : connectTo);
  const connect = opts.connectTimeoutMs === undefined ? open : bounded(open, opts.connectTimeoutMs);
  const keepHeaders = opts.keepHeaders === true;
  const deadlines = new Deadlines();

  async function request(call: UpstreamCall): Promise<UpstreamResult> {
    let bytes: Uint8Array;
    try {
      bytes = requestBytes(call);
    } catch {
      return UNREACHABLE; // a header the caller should have refused; never sent
    }
    const ex = deadlines.add(performance.now() + call.timeoutMs);
    try {
      const { wire, head } = await exchange(call, bytes, ex);
      return await finish(call, wire, head, ex);
    } catch (e) {
      ex.wire?.close();
      if (ex.expired || e instanceof ConnectTimeout) return TIMED_OUT;
      return e instanceof ProtocolError ? failureOf(e) : UNREACHABLE;
    } finally {
      deadlines.remove(ex);
    }
  }

  /**
   * Sends the request and reads the response head: on a pooled connection when there is
   * one, and once more on a new connection when the server had closed that one before
   * sending any byte (GET and HEAD are idempotent, RFC 9110 §9.2.2).
   */
  async function exchange(
    call: UpstreamCall,
    bytes: Uint8Array,
    ex: Exchange,
  ): Promise<{ wire: Wire; head: ResponseHead }> {
    const key = originKey(call.url, call.address);
    const isHead = call.method === "HEAD";
    const attempt = async (wire: Wire): Promise<ResponseHead | null> => {
      ex.wire = wire;
      wire.reset();
      // no race here: an expired deadline closes the wire, which ends these reads
      await wire.write(bytes);
      return await readHead(wire, isHead);
    };
    const pooled = pool.take(key, performance.now());
    if (pooled !== undefined) {
      const head = await attempt(pooled).catch((e) => {
        if (e instanceof ProtocolError || pooled.received || ex.expired) throw e;
        return null;
      });
      if (head !== null) return { wire: pooled, head };
      pooled.close();
    }
    const wire = await ex.race(
      connect(call.url, call.address).then((c) => {
        const w = new Wire(c, key);
        if (ex.expired) w.close(); // connected after the deadline: nobody will use it
        return w;
      }),
    );
    const head = await attempt(wire);
    if (head === null) throw new ProtocolError("connection closed before a response");
    return { wire, head };
  }

  /** Reads the body as the call asks: whole within the bound, else streamed. */
  async function finish(
    call: UpstreamCall,
    wire: Wire,
    head: ResponseHead,
    ex: Exchange,
  ): Promise<UpstreamResult> {
    const { status } = head;
    const headers = keepHeaders ? head.headers : filterHeaderPairs(head.headers);
    const setCookie = head.headers.some((h) => h[0] === "set-cookie" || h[0] === "set-cookie2");
    const coding = codingOf(lastValue(head.headers, "content-encoding"));
    if (coding === "unsupported") throw new ProtocolError("unsupported content coding");
    const framing = head.framing;
    const release = () => {
      // Handed back: a later failure of this request must not close what another one took.
      if (ex.wire === wire) ex.wire = undefined;
      if (head.reusable) pool.give(wire, performance.now());
      else wire.close();
    };
    if (framing.kind === "none") {
      release();
      return { kind: "buffered", status, headers, body: new Uint8Array(0), setCookie };
    }
    const source = bodySource(wire, framing);
    const declared = framing.kind === "length" && coding === null ? framing.length : null;
    if (declared !== null && declared <= call.maxBuffer) {
      // one buffer of exactly the body's length, filled straight from the socket
      const body = new Uint8Array(declared);
      await wire.readInto(body);
      release();
      return { kind: "buffered", status, headers, body, setCookie };
    }
    const pieces: Uint8Array[] = [];
    let total = 0;
    if (declared === null) {
      for (;;) {
        const piece = await source.next(BUFFER_PIECE);
        if (piece === null) break;
        pieces.push(piece);
        total += piece.length;
        if (total > call.maxBuffer) break;
      }
    }
    if (declared === null && total <= call.maxBuffer) {
      release();
      const raw = concatBytes(pieces, total);
      if (coding === null) return { kind: "buffered", status, headers, body: raw, setCookie };
      try {
        const body = await decodeWhole(coding, raw, call.maxBuffer) as Bytes;
        return { kind: "buffered", status, headers, body, setCookie };
      } catch (e) {
        if (!(e instanceof TooLarge)) throw new ProtocolError("undecodable body");
        const body = decodeStream(coding, ReadableStream.from([raw]));
        return { kind: "stream", status, headers, body, length: null };
      }
    }
    // Too large to cache: handed over as a stream, outside the deadline (a long video
    // must not be cut off; the visitor's own connection bounds it).
    deadlines.remove(ex);
    const body = streamOf(wire, source, pieces, release, coding);
    return { kind: "stream", status, headers, body, length: coding === null ? declared : null };
  }

  return {
    request,
    close() {
      pool.closeAll();
      deadlines.stop();
    },
  };
}

/** A head, skipping interim 1xx responses (RFC 9110 §15.2); null when the connection ended. */
async function readHead(wire: Wire, isHead: boolean): Promise<ResponseHead | null> {
  for (;;) {
    const bytes = await wire.readHead();
    if (bytes === null) return null;
    const head = parseResponseHead(bytes, isHead);
    if (head.status === 101) throw new ProtocolError("unexpected protocol switch");
    if (head.status >= 200) return head;
  }
}

function streamOf(
  wire: Wire,
  source: BodySource,
  replay: Uint8Array[],
  release: () => void,
  coding: Coding | null,
): ReadableStream<Uint8Array> {
  let i = 0;
  const raw = new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      if (i < replay.length) return ctrl.enqueue(replay[i++]);
      try {
        const piece = await source.next(STREAM_PIECE);
        if (piece === null) {
          ctrl.close();
          release();
        } else ctrl.enqueue(piece);
      } catch (e) {
        wire.close();
        ctrl.error(e);
      }
    },
    cancel() {
      wire.close();
    },
  }, { highWaterMark: 0 });
  return coding === null ? raw : decodeStream(coding, raw);
}

function failureOf(e: ProtocolError): UpstreamResult {
  return /closed early|closed inside/.test(e.message) ? CLOSED_EARLY : MALFORMED;
}

function lastValue(headers: [string, string][], name: string): string | undefined {
  let v: string | undefined;
  for (const h of headers) if (h[0] === name) v = v === undefined ? h[1] : `${v}, ${h[1]}`;
  return v;
}

/** `scheme//host:port` (and the pinned address): the pool key. */
function originKey(url: URL, address?: string): string {
  const origin = `${url.protocol}//${url.hostname}:${portOf(url)}`;
  return address === undefined ? origin : `${origin}@${address}`;
}

function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
}

/**
 * Opens a TCP (http:) or TLS (https:, HTTP/1.1 by ALPN) connection for a URL. With
 * `address` the TCP connection goes to that IP (no second DNS lookup) and TLS is started on
 * it for the URL's host, so SNI and certificate checks still name the host.
 */
export async function connectTo(
  url: URL,
  address?: string,
  caCerts?: string[],
): Promise<Deno.Conn> {
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = portOf(url);
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new TypeError("unsupported scheme");
  }
  if (address === undefined) {
    if (url.protocol === "https:") {
      return await Deno.connectTls({ hostname, port, caCerts, alpnProtocols: ["http/1.1"] });
    }
    return await Deno.connect({ hostname, port });
  }
  const tcp = await Deno.connect({ hostname: address, port });
  if (url.protocol === "http:") return tcp;
  try {
    return await Deno.startTls(tcp, { hostname, caCerts, alpnProtocols: ["http/1.1"] });
  } catch (e) {
    tcp.close();
    throw e;
  }
}

class ConnectTimeout extends Error {}

/** `connect` rejected with ConnectTimeout after `ms`; a connection that comes later is closed. */
function bounded(
  connect: (url: URL, address?: string) => Promise<Deno.Conn>,
  ms: number,
): (url: URL, address?: string) => Promise<Deno.Conn> {
  return (url, address) =>
    new Promise((resolve, reject) => {
      let late = false;
      const timer = setTimeout(() => {
        late = true;
        reject(new ConnectTimeout("connect timed out"));
      }, ms);
      connect(url, address).then((conn) => {
        clearTimeout(timer);
        if (late) conn.close();
        else resolve(conn);
      }, (e) => {
        clearTimeout(timer);
        reject(e);
      });
    });
}

const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const BAD_FIELD_VALUE = /[\0\r\n]/;
const BAD_TARGET = /[\0-\x20\x7f]/;

/**
 * The request head. Values were checked by the caller (edge/upstream.ts RequestHeaders);
 * checked again here, since a CR or LF in one would split the request.
 */
export function requestBytes(call: UpstreamCall): Uint8Array {
  const target = call.url.pathname + call.url.search;
  if (BAD_TARGET.test(target) || BAD_FIELD_VALUE.test(call.url.host)) {
    throw new TypeError("invalid request target");
  }
  let s = `${call.method} ${target} HTTP/1.1\r\nhost: ${call.url.host}\r\n`;
  let encoding = false;
  for (const [k, v] of call.headers) {
    if (!FIELD_NAME.test(k) || BAD_FIELD_VALUE.test(v)) throw new TypeError("invalid header");
    const name = k.toLowerCase();
    if (name === "host" || name === "connection" || name === "content-length") continue;
    if (name === "accept-encoding") encoding = true;
    s += `${k}: ${v}\r\n`;
  }
  if (!encoding) s += `accept-encoding: ${ACCEPT_ENCODING}\r\n`;
  return enc.encode(s + "\r\n");
}

/**
 * One request's deadline. When it passes, the connection is closed (ending any read or
 * write on it) and `race` rejects (bounding a connect, which has no connection yet).
 */
class Exchange {
  expired = false;
  wire: Wire | undefined;
  #reject: ((e: Error) => void) | undefined;

  constructor(readonly at: number) {}

  race<T>(p: Promise<T>): Promise<T> {
    const expiry = new Promise<never>((_, reject) => (this.#reject = reject));
    return Promise.race([p, expiry]);
  }

  fire(): void {
    this.expired = true;
    this.wire?.close();
    this.#reject?.(new Error("deadline"));
  }
}

/**
 * All in-flight deadlines of a client, checked by one timer every TICK_MS. The timer keeps
 * the process alive only while a request is in flight, as a timer per request would.
 */
class Deadlines {
  #live = new Set<Exchange>();
  #timer: ReturnType<typeof setInterval> | undefined;

  add(at: number): Exchange {
    const ex = new Exchange(at);
    this.#live.add(ex);
    if (this.#timer === undefined) this.#timer = setInterval(() => this.#tick(), TICK_MS);
    else if (this.#live.size === 1) Deno.refTimer(this.#timer as unknown as number);
    return ex;
  }

  remove(ex: Exchange): void {
    if (this.#live.delete(ex) && this.#live.size === 0 && this.#timer !== undefined) {
      Deno.unrefTimer(this.#timer as unknown as number);
    }
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #tick(): void {
    const now = performance.now();
    for (const ex of this.#live) {
      if (ex.at <= now) {
        this.remove(ex);
        ex.fire();
      }
    }
  }
}
