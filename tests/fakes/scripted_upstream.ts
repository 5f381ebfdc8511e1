/**
 * A TCP server that answers each HTTP/1.1 request with bytes a test scripts: well-formed
 * or broken responses, pauses, early closes. It records every request head and which
 * connection carried it, so tests can see keep-alive reuse and retries.
 */

/** One step of an answer: bytes to write, a pause, or closing the connection. */
export type Step = string | Uint8Array | { waitMs: number } | "close" | "hang";

export type SeenHead = { conn: number; method: string; target: string; head: string };

export type ScriptedUpstream = {
  url: string;
  port: number;
  seen: SeenHead[];
  /** Connections accepted so far. */
  readonly connections: number;
  close(): void;
};

const enc = new TextEncoder();
const dec = new TextDecoder();

export function startScriptedUpstream(
  answer: (req: SeenHead, n: number) => Step[],
): ScriptedUpstream {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const seen: SeenHead[] = [];
  const open = new Set<Deno.Conn>();
  let connections = 0;
  /** Pauses in progress: close() ends them, so no timer outlives the test that made it. */
  const pauses = new Map<ReturnType<typeof setTimeout>, () => void>();
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        pauses.delete(t);
        resolve();
      }, ms);
      pauses.set(t, resolve);
    });
  let closed = false;
  let onClose: () => void;
  const closing = new Promise<void>((r) => onClose = r);
  (async () => {
    for await (const conn of listener) {
      const id = ++connections;
      open.add(conn);
      serveConn(conn, id).finally(() => {
        open.delete(conn);
        try {
          conn.close();
        } catch { /* closed already */ }
      });
    }
  })().catch(() => {});

  async function serveConn(conn: Deno.Conn, id: number): Promise<void> {
    let buf = "";
    const chunk = new Uint8Array(16384);
    for (;;) {
      let end: number;
      while ((end = buf.indexOf("\r\n\r\n")) === -1) {
        const n = await conn.read(chunk).catch(() => null);
        if (n === null) return;
        buf += dec.decode(chunk.subarray(0, n));
      }
      const head = buf.slice(0, end);
      buf = buf.slice(end + 4);
      const [method, target] = head.split("\r\n")[0].split(" ");
      const req = { conn: id, method, target, head };
      seen.push(req);
      for (const step of answer(req, seen.length)) {
        if (step === "close") return;
        if (step === "hang") {
          await closing;
          return;
        }
        if (typeof step === "object" && "waitMs" in step) {
          await pause(step.waitMs);
          if (closed) return;
          continue;
        }
        const bytes = typeof step === "string" ? enc.encode(step) : step;
        try {
          await conn.write(bytes);
        } catch {
          return;
        }
      }
    }
  }

  const port = (listener.addr as Deno.NetAddr).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    get connections() {
      return connections;
    },
    close() {
      closed = true;
      onClose();
      for (const [t, resolve] of pauses) {
        clearTimeout(t);
        resolve();
      }
      pauses.clear();
      listener.close();
      for (const c of open) {
        try {
          c.close();
        } catch { /* closed already */ }
      }
    },
  };
}

/** A complete response with a Content-Length body. */
export function ok(body: string, headers: Record<string, string> = {}): string {
  const h = Object.entries({ "content-type": "text/plain", ...headers })
    .map(([k, v]) => `${k}: ${v}\r\n`).join("");
  return `HTTP/1.1 200 OK\r\n${h}content-length: ${enc.encode(body).length}\r\n\r\n${body}`;
}
