/**
 * The mail layer keeps every header single-line: a subject or recipient carrying CR/LF
 * (an experiment name, a tenant name) must never reach the transport as a line break,
 * whichever caller built it.
 */
import { assert, assertEquals } from "./assert.ts";
import { startFakeMail } from "./fakes/mail.ts";
import { sendMail } from "../lib/mail/mod.ts";
import type { Services } from "../lib/services.ts";

function services(url: string): Services {
  const warned: string[] = [];
  return {
    config: { mailTransportUrl: url },
    fetch: globalThis.fetch.bind(globalThis),
    log: { warn: (m: string) => warned.push(m), info() {}, error() {}, debug() {} },
  } as unknown as Services;
}

const BREAKS = ["\r\n", "\n", "\r", "\u0085", "\u2028", "\u2029", "\v", "\f", "\t"];

Deno.test("a subject with line breaks reaches the transport on one line", async () => {
  const mail = startFakeMail();
  try {
    const s = services(mail.url);
    for (const br of BREAKS) {
      const ok = await sendMail(s, {
        to: "owner@example.com",
        subject: `Cachely: experiment "x${br}Bcc: victim@example.com" stopped itself`,
        text: "line one\nline two",
      });
      assert(ok, JSON.stringify(br));
    }
    assertEquals(mail.sent.length, BREAKS.length);
    for (const m of mail.sent) {
      // deno-lint-ignore no-control-regex -- control characters are what it looks for
      assert(!/[\u0000-\u001f\u007f\u0085\u2028\u2029]/.test(m.subject), JSON.stringify(m.subject));
      assert(m.subject.includes("x Bcc: victim@example.com"), m.subject);
      assertEquals(m.text, "line one\nline two", "the body keeps its lines");
    }
  } finally {
    await mail.close();
  }
});

Deno.test("a recipient with a line break is never sent", async () => {
  const mail = startFakeMail();
  try {
    const s = services(mail.url);
    const ok = await sendMail(s, {
      to: "owner@example.com\r\nBcc: victim@example.com",
      subject: "hello",
      text: "body",
    });
    assertEquals(ok, false);
    assertEquals(mail.sent.length, 0);
  } finally {
    await mail.close();
  }
});
