/**
 * Response bodies by their framing (RFC 9112 §6, §7.1): a fixed length, chunked, or
 * until the connection closes. A source hands out body bytes in pieces and throws
 * ProtocolError when the framing is broken, so a truncated body is never mistaken
 * for a whole one.
 */
import { type Framing, latin1, ProtocolError } from "./head.ts";
import type { Wire } from "./wire.ts";

export type BodySource = {
  /** Up to `max` more body bytes, or null once the body is complete. */
  next(max: number): Promise<Uint8Array | null>;
};

const CHUNK_SIZE = /^[0-9A-Fa-f]{1,15}$/;

export function bodySource(wire: Wire, framing: Framing): BodySource {
  switch (framing.kind) {
    case "none":
      return { next: () => Promise.resolve(null) };
    case "length":
      return lengthSource(wire, framing.length);
    case "chunked":
      return chunkedSource(wire);
    case "close":
      return { next: (max) => wire.readSome(max) };
  }
}

function lengthSource(wire: Wire, length: number): BodySource {
  let left = length;
  return {
    async next(max) {
      if (left === 0) return null;
      const got = await wire.readSome(Math.min(max, left));
      if (got === null) throw new ProtocolError("connection closed early");
      left -= got.length;
      return got;
    },
  };
}

function chunkedSource(wire: Wire): BodySource {
  let left = 0;
  let first = true;
  let done = false;
  return {
    async next(max) {
      if (done) return null;
      if (left === 0) {
        if (!first && (await wire.readLine()).length !== 0) {
          throw new ProtocolError("chunk not followed by CRLF");
        }
        first = false;
        const line = latin1(await wire.readLine());
        const semi = line.indexOf(";"); // chunk extensions are ignored (§7.1.1)
        const size = (semi === -1 ? line : line.slice(0, semi)).trimEnd();
        if (!CHUNK_SIZE.test(size)) throw new ProtocolError("malformed chunk size");
        left = parseInt(size, 16);
        if (left === 0) {
          // trailer section: read and dropped (§7.1.2), up to the empty line
          for (let n = 0; (await wire.readLine()).length !== 0; n++) {
            if (n > 256) throw new ProtocolError("too many trailer fields");
          }
          done = true;
          return null;
        }
      }
      const got = await wire.readSome(Math.min(max, left));
      if (got === null) throw new ProtocolError("connection closed early");
      left -= got.length;
      return got;
    },
  };
}
