/**
 * A ustar archive (POSIX.1-1988 tar) of regular files, written in memory: the format npm reads
 * from a package tarball. Only what a package needs: paths up to 100 bytes, modes, no links.
 */

/** One file of the archive: its path inside the archive, its bytes and its mode. */
export type TarEntry = { path: string; data: Uint8Array; mode: number };

const BLOCK = 512;
const encoder = new TextEncoder();

/**
 * The archive's bytes. Every entry gets the same mtime (as `npm pack` does), so the same files
 * always give the same archive, and so the same ETag.
 */
export function tar(
  entries: TarEntry[],
  mtime = new Date("1985-10-26T08:15:00Z"),
): Uint8Array<ArrayBuffer> {
  const parts: Uint8Array[] = [];
  for (const e of entries) {
    parts.push(header(e, Math.floor(mtime.getTime() / 1000)));
    parts.push(e.data);
    const pad = (BLOCK - (e.data.length % BLOCK)) % BLOCK;
    if (pad) parts.push(new Uint8Array(pad));
  }
  parts.push(new Uint8Array(BLOCK * 2)); // end of archive: two zero blocks
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function header(e: TarEntry, mtime: number): Uint8Array {
  const name = encoder.encode(e.path);
  if (name.length > 100) throw new RangeError(`Invalid tar path: longer than 100 bytes: ${e.path}`);
  const h = new Uint8Array(BLOCK);
  h.set(name, 0);
  h.set(octal(e.mode, 8), 100);
  h.set(octal(0, 8), 108); // uid
  h.set(octal(0, 8), 116); // gid
  h.set(octal(e.data.length, 12), 124);
  h.set(octal(mtime, 12), 136);
  h.set(encoder.encode("        "), 148); // checksum field counts as spaces while summing
  h[156] = "0".charCodeAt(0); // regular file
  h.set(encoder.encode("ustar\u000000"), 257);
  const sum = h.reduce((n, b) => n + b, 0);
  h.set(encoder.encode(sum.toString(8).padStart(6, "0") + "\u0000 "), 148);
  return h;
}

/** A NUL-terminated, zero-padded octal field of `width` bytes. */
function octal(n: number, width: number): Uint8Array {
  return encoder.encode(n.toString(8).padStart(width - 1, "0") + "\u0000");
}
