/** The URL attributes of the runtime's spans as exported (edge/span_redaction.ts). */
import { assertEquals } from "./assert.ts";
import { redactAttribute } from "../edge/span_redaction.ts";

Deno.test("span URL attributes: every query value and the webhook's path secret are redacted", () => {
  const cases: [string, unknown, unknown][] = [
    ["url.query", "token=abc&x=1&flag", "token=REDACTED&x=REDACTED&REDACTED"],
    ["url.query", "", ""],
    [
      "url.path",
      "/api/webhooks/cache-refresh/12/s3cr3t",
      "/api/webhooks/cache-refresh/12/REDACTED",
    ],
    [
      "url.path",
      "//API/webhooks/cache-refresh/12/s3/cr3t",
      "//API/webhooks/cache-refresh/12/REDACTED",
    ],
    [
      "url.path",
      "/api/webhooks/cache-refres%68/12/s3cr3t",
      "/api/webhooks/cache-refresh/12/REDACTED",
    ],
    ["url.path", "/api/webhooks/cache-refresh/12", "/api/webhooks/cache-refresh/12"],
    ["url.path", "/reset-password", "/reset-password"],
    [
      "url.full",
      "https://u:pw@cachely.example/api/webhooks/cache-refresh/7/s3cr3t?a=b#frag",
      "https://cachely.example/api/webhooks/cache-refresh/7/REDACTED?a=REDACTED",
    ],
    [
      "url.full",
      "http://h:8000/invites/accept?token=t0k",
      "http://h:8000/invites/accept?token=REDACTED",
    ],
    ["url.full", "not a url", "REDACTED"],
    ["http.target", "/reset-password?token=t0k", "/reset-password?token=REDACTED"],
    ["http.response.status_code", 200, 200],
    ["cachely.tenant", "acme", "acme"],
  ];
  for (const [key, value, want] of cases) assertEquals(redactAttribute(key, value), want, key);
});
