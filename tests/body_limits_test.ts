/**
 * Every request body the app reads is bounded: a 200 MB post to each form route and to a JSON
 * route, with Content-Length or chunked, is answered 413 once past the route's documented limit
 * (docs/operations.md "Body limits") and the process does not grow by it. Real process
 * (`deno run -A main.ts`, PGlite) and raw sockets, so the bytes go through Deno.serve as a
 * client's would, and the RSS measured is the server's alone.
 */
import { assert, assertEquals } from "./assert.ts";
import { type Instance, startInstance, stop } from "./instances.ts";

const TOTAL = 200 * 1024 * 1024;
const PIECE = new Uint8Array(1024 * 1024).fill(0x61); // "aaaa…": one huge form field name
const MAX_GROWTH = 64 * 1024 * 1024;
const enc = new TextEncoder();

/** The server's resident set, from /proc (the child is the deno process itself). */
async function rss(inst: Instance): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${inst.child.pid}/status`);
  return Number(status.match(/VmRSS:\s+(\d+) kB/)![1]) * 1024;
}

/**
 * Posts `size` bytes to `path` and returns the status of the answer, which may come before the
 * body is sent: sending stops then. Chunked or with Content-Length.
 */
async function post(
  inst: Instance,
  path: string,
  o: { size: number; chunked: boolean; type: string },
): Promise<number> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: inst.port });
  const origin = `http://127.0.0.1:${inst.port}`;
  await writeAll(
    conn,
    enc.encode(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${inst.port}\r\nOrigin: ${origin}\r\n` +
        `Content-Type: ${o.type}\r\nConnection: close\r\n` +
        (o.chunked ? "Transfer-Encoding: chunked\r\n\r\n" : `Content-Length: ${o.size}\r\n\r\n`),
    ),
  );
  const answer = (async () => {
    const buf = new Uint8Array(64);
    const n = await conn.read(buf);
    return Number(new TextDecoder().decode(buf.subarray(0, n ?? 0)).split(" ")[1]);
  })();
  const answered = answer.then(() => "answered" as const, () => "answered" as const);
  try {
    let sent = 0;
    while (sent < o.size) {
      const piece = PIECE.subarray(0, Math.min(PIECE.byteLength, o.size - sent));
      const frame = o.chunked
        ? [enc.encode(`${piece.byteLength.toString(16)}\r\n`), piece, enc.encode("\r\n")]
        : [piece];
      let stop = false;
      for (const part of frame) {
        const w = writeAll(conn, part).then(() => "written" as const);
        w.catch(() => {});
        if ((await Promise.race([w, answered]).catch(() => "answered")) === "answered") {
          stop = true;
          break;
        }
      }
      if (stop) break;
      sent += piece.byteLength;
    }
    if (o.chunked && sent >= o.size) await writeAll(conn, enc.encode("0\r\n\r\n")).catch(() => {});
    // A server that neither answers nor reads (the bug this guards against) fails the test.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<number>((r) => timer = setTimeout(() => r(-1), 60_000));
    try {
      return await Promise.race([answer, late]);
    } finally {
      clearTimeout(timer);
    }
  } finally {
    try {
      conn.close();
    } catch { /* closed by the server */ }
  }
}

/** conn.write may take only part of a buffer: the rest is written too. */
async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let off = 0; off < bytes.byteLength;) off += await conn.write(bytes.subarray(off));
}

/** The largest RSS growth seen while `run` runs (sampled every 20 ms). */
async function peakGrowth(inst: Instance, run: () => Promise<number>) {
  const before = await rss(inst);
  let peak = before;
  let done = false;
  const sampler = (async () => {
    while (!done) {
      peak = Math.max(peak, await rss(inst));
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  try {
    return { status: await run(), growth: peak - before };
  } finally {
    done = true;
    await sampler;
    peak = Math.max(peak, await rss(inst));
  }
}

const FORM = "application/x-www-form-urlencoded";
/** Every route that takes a form post, and one JSON route (the API's body reader). */
const ROUTES: { path: string; type: string }[] = [
  { path: "/login", type: FORM },
  { path: "/signup", type: FORM },
  { path: "/forgot-password", type: FORM },
  { path: "/reset-password", type: FORM },
  { path: "/forms", type: FORM },
  { path: "/forms", type: "multipart/form-data; boundary=x" },
  { path: "/verify-email/dismiss", type: FORM },
  { path: "/logout", type: FORM },
  { path: "/api/auth/login", type: "application/json" },
];

Deno.test({
  name: "a 200 MB post to any form route is a 413 and leaves the server's memory as it was",
  sanitizeResources: false, // the instance's pipes close after the test's own stop()
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    const inst = await startInstance({ DATA_DIR: dir });
    try {
      // Each route once with a small body first: its code loaded and compiled, not counted.
      for (const r of ROUTES) await post(inst, r.path, { size: 10, chunked: false, type: r.type });
      for (const r of ROUTES) {
        for (const chunked of [false, true]) {
          const { status, growth } = await peakGrowth(
            inst,
            () => post(inst, r.path, { size: TOTAL, chunked, type: r.type }),
          );
          const what = `${r.path} (${r.type.split(";")[0]}, ${chunked ? "chunked" : "length"})`;
          console.log(`${what}: ${status}, +${(growth / 1048576).toFixed(1)} MB`);
          // Log-out reads no body: a chunked one is never looked at (its Content-Length is).
          if (r.path === "/logout" && chunked) assert(status < 500, what);
          else assertEquals(status, 413, what);
          assert(growth < MAX_GROWTH, `${what}: RSS grew ${growth} bytes`);
        }
      }
    } catch (e) {
      console.log(inst.out.filter((l) => l.includes('"error"')).slice(-5).join("\n"));
      throw e;
    } finally {
      await stop(inst);
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
