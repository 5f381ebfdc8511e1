/**
 * The one bounded body reader: reads a stream up to `maxBytes` and stops there, never
 * holding more than the bound (a lying or missing Content-Length cannot get past it).
 * `over: "truncate"` keeps the first maxBytes (a page analysed in part); `"refuse"`
 * reports `tooLarge` with no bytes. `idleMs` bounds the wait for each piece (a stalled
 * sender), `until` (a performance.now() time) the whole read (a trickling one); `onIdle`
 * builds what is thrown when either passes. The stream is cancelled whenever reading stops
 * early.
 */
export type BoundedRead = { bytes: Uint8Array; truncated: boolean; tooLarge: boolean };

export async function readBounded(
  stream: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  opts: { over: "truncate" | "refuse"; idleMs?: number; until?: number; onIdle?: () => Error },
): Promise<BoundedRead> {
  if (!stream) return { bytes: new Uint8Array(0), truncated: false, tooLarge: false };
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const wait = opts.until === undefined
      ? opts.idleMs
      : Math.max(0, Math.min(opts.idleMs ?? Infinity, opts.until - performance.now()));
    const { done, value } = await readWithin(reader, wait, opts.onIdle);
    if (done) break;
    if (total + value.byteLength > maxBytes) {
      await reader.cancel().catch(() => {});
      if (opts.over === "refuse") {
        return { bytes: new Uint8Array(0), truncated: false, tooLarge: true };
      }
      chunks.push(value.subarray(0, maxBytes - total));
      total = maxBytes;
      return { bytes: concat(chunks, total), truncated: true, tooLarge: false };
    }
    chunks.push(value);
    total += value.byteLength;
  }
  return { bytes: concat(chunks, total), truncated: false, tooLarge: false };
}

/** One read, or `onIdle()` thrown (the stream cancelled) when nothing arrives within waitMs. */
async function readWithin(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  waitMs: number | undefined,
  onIdle: (() => Error) | undefined,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  if (waitMs === undefined) return await reader.read();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const idle = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Rejected before the cancel, whose empty read would otherwise win the race.
      reject(onIdle?.() ?? new Error("body idle"));
      reader.cancel().catch(() => {});
    }, waitMs);
  });
  try {
    return await Promise.race([reader.read(), idle]);
  } finally {
    clearTimeout(timer);
  }
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const all = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    all.set(c, off);
    off += c.byteLength;
  }
  return all;
}
