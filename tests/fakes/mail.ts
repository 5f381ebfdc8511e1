/**
 * A loopback mail transport: receives `POST { to, subject, text }` like the
 * MAIL_TRANSPORT_URL endpoint would, records each message, and can be told to fail.
 */
import { serveOnLoopback } from "../harness.ts";

export type SentMail = { to: string; subject: string; text: string };

/** `delayMs`: how long the transport takes to accept each message (a slow mail provider). */
export function startFakeMail(opts: { delayMs?: number } = {}) {
  const sent: SentMail[] = [];
  let failWith: number | null = null;
  const server = serveOnLoopback(async (req) => {
    if (req.method !== "POST") return new Response("method", { status: 405 });
    if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
    if (failWith !== null) return new Response("down", { status: failWith });
    sent.push(await req.json());
    return Response.json({ ok: true }, { status: 202 });
  });
  return {
    url: `${server.url}/send`,
    sent,
    /** Forgets what was sent so far (e.g. the verification mails of the sign-ups before). */
    clear() {
      sent.length = 0;
    },
    /** Answer every later message with this status (null: accept again). */
    fail(status: number | null) {
      failWith = status;
    },
    close: () => server.close(),
  };
}
