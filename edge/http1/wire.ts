/**
 * One upstream connection with its read buffer: the head and chunk-size lines are read
 * through the buffer; body bytes beyond what it holds are read straight into their
 * destination, so a body is copied once (kernel -> its own buffer).
 */
import { ProtocolError } from "./head.ts";

/** Largest response head accepted (status line and fields). */
export const MAX_HEAD_BYTES = 64 * 1024;
const BUFFER_BYTES = 16 * 1024;
const MAX_LINE = 4096;

export class Wire {
  #buf = new Uint8Array(BUFFER_BYTES);
  #start = 0;
  #end = 0;
  /** A response byte has arrived for the current exchange (a retry is then unsafe). */
  received = false;
  /** ms (performance.now()) the connection went idle in the pool. */
  idleSince = 0;
  closed = false;

  constructor(readonly conn: Deno.Conn, readonly key: string) {}

  /** Bytes read past what the current exchange consumed. */
  get pending(): number {
    return this.#end - this.#start;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.conn.close();
    } catch {
      // already closed by the runtime
    }
  }

  /** Reads more into the buffer; false at end of stream. */
  async #fill(limit: number): Promise<boolean> {
    if (this.#start > 0 && this.#start === this.#end) this.#start = this.#end = 0;
    if (this.#end === this.#buf.length) {
      if (this.#start > 0) {
        this.#buf.copyWithin(0, this.#start, this.#end);
        this.#end -= this.#start;
        this.#start = 0;
      } else {
        if (this.#buf.length >= limit) return true; // caller checks its own bound
        const bigger = new Uint8Array(Math.min(this.#buf.length * 2, limit));
        bigger.set(this.#buf.subarray(0, this.#end));
        this.#buf = bigger;
      }
    }
    const n = await this.conn.read(this.#buf.subarray(this.#end));
    if (n === null) return false;
    this.received = true;
    this.#end += n;
    return true;
  }

  /**
   * The bytes up to an empty line (CRLF CRLF), without it; null when the connection
   * ended before any byte of it arrived (a keep-alive connection the server closed).
   */
  async readHead(): Promise<Uint8Array | null> {
    let scanned = 0; // bytes after #start already searched (offsets survive compaction)
    for (;;) {
      const from = this.#start + Math.max(0, scanned - 3);
      const i = indexOfCrlfCrlf(this.#buf, from, this.#end);
      if (i !== -1) {
        const head = this.#buf.subarray(this.#start, i);
        this.#start = i + 4;
        return head;
      }
      scanned = this.#end - this.#start;
      if (scanned >= MAX_HEAD_BYTES) throw new ProtocolError("response head too large");
      if (!(await this.#fill(MAX_HEAD_BYTES + 4))) {
        if (scanned === 0) return null;
        throw new ProtocolError("connection closed inside the response head");
      }
    }
  }

  /** One CRLF-terminated line (chunk sizes, trailers), without the CRLF. */
  async readLine(): Promise<Uint8Array> {
    for (;;) {
      for (let i = this.#start; i + 1 < this.#end; i++) {
        if (this.#buf[i] === 13 && this.#buf[i + 1] === 10) {
          const line = this.#buf.subarray(this.#start, i);
          this.#start = i + 2;
          return line;
        }
      }
      if (this.#end - this.#start > MAX_LINE) throw new ProtocolError("line too long");
      if (!(await this.#fill(BUFFER_BYTES))) throw new ProtocolError("connection closed early");
    }
  }

  /** Fills `out` completely: buffered bytes first, then straight from the socket. */
  async readInto(out: Uint8Array): Promise<void> {
    let have = this.#take(out);
    while (have < out.length) {
      const n = await this.conn.read(out.subarray(have));
      if (n === null) throw new ProtocolError("connection closed early");
      this.received = true;
      have += n;
    }
  }

  /**
   * Up to `max` bytes, whatever arrives first: buffered bytes, else one socket read into
   * a fresh buffer. null at end of stream.
   */
  async readSome(max: number): Promise<Uint8Array | null> {
    if (this.#end > this.#start) {
      const n = Math.min(max, this.#end - this.#start);
      const out = this.#buf.slice(this.#start, this.#start + n);
      this.#start += n;
      return out;
    }
    const out = new Uint8Array(max);
    const n = await this.conn.read(out);
    if (n === null) return null;
    this.received = true;
    return n === max ? out : out.subarray(0, n);
  }

  /** Copies buffered bytes into `out`; returns how many. */
  #take(out: Uint8Array): number {
    const n = Math.min(out.length, this.#end - this.#start);
    if (n > 0) {
      out.set(this.#buf.subarray(this.#start, this.#start + n));
      this.#start += n;
    }
    return n;
  }

  /** Starts a new exchange on a kept-alive connection. */
  reset(): void {
    this.received = false;
  }

  async write(bytes: Uint8Array): Promise<void> {
    let off = 0;
    while (off < bytes.length) off += await this.conn.write(bytes.subarray(off));
  }
}

function indexOfCrlfCrlf(b: Uint8Array, from: number, to: number): number {
  for (let i = from; i + 3 < to; i++) {
    if (b[i] === 13 && b[i + 1] === 10 && b[i + 2] === 13 && b[i + 3] === 10) return i;
  }
  return -1;
}
