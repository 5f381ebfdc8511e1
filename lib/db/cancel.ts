/**
 * Cancel requests for statements that missed their deadline (lib/db/deadline.ts), sent by the
 * app rather than by postgres.js, for two reasons (docs/decisions.md "Deadline without
 * cancelling unsent statements"):
 * - postgres.js 3.4.9 opens each cancel on a connection carrying the pool's connect timeout,
 *   and closes it when that runs out. Behind a frozen pgbouncer the cancel then sits unread;
 *   when pgbouncer resumes it reads the key, starts forwarding it, sees the socket already
 *   closed and, in 1.18, exits (`disconnect_client(): bad client state: 0`). A cancel sent here
 *   is left open until the server or pooler closes it, as the protocol expects, and only given
 *   up after CANCEL_HOLD_MS.
 * - A pooler that resumes after a stall meets every cancel at once. At most
 *   MAX_CANCELS_IN_FLIGHT are open per database; a statement missing its deadline while they
 *   are is not cancelled (its request has already failed; the statement ends by itself, or
 *   with its connection).
 */
import { databaseCancels } from "./error_counts.ts";

/** Cancel requests open at once per database, beyond which none is sent. */
export const MAX_CANCELS_IN_FLIGHT = 2;
/** How long a cancel nobody answers is kept open before it is closed from this side. */
const CANCEL_HOLD_MS = 10 * 60_000;

/** What postgres.js 3.4.9 keeps as a statement's `state` once sent: its connection's key. */
export type BackendKey = { pid: number; secret: number };

/** Where cancel requests go: the host and port (or socket path) the pool connects to. */
type CancelTarget =
  | { transport: "tcp"; hostname: string; port: number }
  | { transport: "unix"; path: string };

/** Sends at most MAX_CANCELS_IN_FLIGHT at a time; `send` is false when one was not sent. */
type CancelLimiter = {
  send(start: () => Promise<unknown>): boolean;
  inFlight(): number;
};

export function cancelLimiter(max = MAX_CANCELS_IN_FLIGHT): CancelLimiter {
  let open = 0;
  return {
    send(start) {
      if (open >= max) {
        databaseCancels.skipped++;
        return false;
      }
      open++;
      databaseCancels.sent++;
      let p: Promise<unknown>;
      try {
        p = start();
      } catch (e) {
        p = Promise.reject(e);
      }
      p.catch(() => {}).finally(() => open--);
      return true;
    },
    inFlight: () => open,
  };
}

/**
 * One CancelRequest (protocol 3: length 16, code 80877102, pid, secret) on a new plain
 * connection; resolves once the other side closed it (or after `holdMs`, then closed here).
 */
export async function sendCancel(
  target: CancelTarget,
  key: BackendKey,
  holdMs = CANCEL_HOLD_MS,
): Promise<void> {
  const conn = target.transport === "unix"
    ? await Deno.connect({ transport: "unix", path: target.path })
    : await Deno.connect({ hostname: target.hostname, port: target.port });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const msg = new DataView(new ArrayBuffer(16));
    msg.setInt32(0, 16);
    msg.setInt32(4, 80877102);
    msg.setInt32(8, key.pid);
    msg.setInt32(12, key.secret);
    const bytes = new Uint8Array(msg.buffer);
    for (let at = 0; at < bytes.length;) at += await conn.write(bytes.subarray(at));
    const held = new Promise<void>((r) => timer = setTimeout(r, holdMs));
    const closed = (async () => {
      const buf = new Uint8Array(64);
      while ((await conn.read(buf)) !== null) { /* nothing is expected: wait for the close */ }
    })();
    await Promise.race([closed, held]);
  } finally {
    clearTimeout(timer);
    try {
      conn.close();
    } catch { /* closed */ }
  }
}

/**
 * Where a postgres.js pool's cancels go, from its parsed options, or null when they cannot be
 * sent plainly here (TLS: the cancel is then left to postgres.js).
 */
export function cancelTarget(options: unknown): CancelTarget | null {
  const o = options as { ssl?: unknown; path?: unknown; host?: unknown; port?: unknown };
  if (o.ssl) return null;
  if (typeof o.path === "string" && o.path) return { transport: "unix", path: o.path };
  const host = Array.isArray(o.host) ? o.host[0] : o.host;
  const port = Array.isArray(o.port) ? o.port[0] : o.port;
  if (typeof host !== "string" || !host || !(Number(port) > 0)) return null;
  return { transport: "tcp", hostname: host, port: Number(port) };
}
