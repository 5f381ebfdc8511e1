import { assert, assertEquals, assertThrows } from "../../tests/assert.ts";
import { fillTemplate, FormFieldError, formToJson, outcomeFrom } from "./form_body.ts";

Deno.test("formToJson() types fields by suffix, nests dotted names, drops empty and _ fields", () => {
  const body = formToJson([
    ["_api", "/api/x"],
    ["name", "Titles"],
    ["blank", ""],
    ["ttl:number", "120"],
    ["on:bool", "false"],
    ["on:bool", "true"],
    ["origin:null", ""],
    ["cap:numnull", ""],
    ["limit:numnull", "5"],
    ["tags:list", "a, b\nc"],
    ["config:json", '{"x":1}'],
    ["variants.1.key", "formal"],
    ["variants.0.key", "control"],
    ["variants.0.weight:number", "2"],
    ["__proto__.polluted", "yes"],
  ]);
  assertEquals(body, {
    name: "Titles",
    ttl: 120,
    on: true,
    origin: null,
    cap: null,
    limit: 5,
    tags: ["a", "b", "c"],
    config: { x: 1 },
    variants: [{ key: "control", weight: 2 }, { key: "formal" }],
  });
  assertEquals(({} as Record<string, unknown>).polluted, undefined);
  const e = assertThrows(() => formToJson([["config:json", "{nope"]]));
  assert(e instanceof FormFieldError);
  assertEquals(e.field, "config");
});

Deno.test("formToJson() leaves out list items marked _remove and never sends the marker", () => {
  const body = formToJson([
    ["variants.0.key", "control"],
    ["variants.0._remove:bool", "false"],
    ["variants.1.key", "formal"],
    ["variants.1.weight:number", "3"],
    ["variants.1._remove:bool", "false"],
    ["variants.1._remove:bool", "true"],
    ["variants.2.key", "casual"],
    ["flag._remove:bool", "true"],
  ]);
  assertEquals(body, { variants: [{ key: "control" }, { key: "casual" }], flag: {} });
  assertEquals(formToJson([["variants.0._remove:bool", "true"]]), { variants: [] });
});

Deno.test("outcomeFrom() shows the server's message and fields, never raw JSON", () => {
  const refused = outcomeFrom(
    400,
    {
      error: {
        code: "bad_request",
        message: "Invalid cacheTTL: too small",
        details: { fields: [{ path: "cacheTTL", message: "too small" }] },
      },
    },
    {},
    "http://x",
  );
  assertEquals(refused, {
    ok: false,
    message: "Invalid cacheTTL: too small",
    fields: { cacheTTL: "too small" },
  });
  assertEquals(
    outcomeFrom(502, "<html>bad gateway</html>", {}, "http://x").message,
    "The request failed (502)",
  );
  const done = outcomeFrom(200, { token: "cly_inv_1", email: "a@b.c" }, {
    done: "Invite for {email}",
    reveal: "token",
    revealLabel: "Accept link",
    revealPrefix: "{origin}/invites/accept?token=",
  }, "https://app.example");
  assertEquals(done.message, "Invite for a@b.c");
  assertEquals(done.reveal, {
    label: "Accept link",
    value: "https://app.example/invites/accept?token=cly_inv_1",
  });
  const failed = outcomeFrom(200, {
    hostname: "a.example",
    status: "failed",
    failureReason: "no TXT",
  }, {
    expect: "status=active",
    fail: "{hostname}: {failureReason}",
  }, "");
  assertEquals(failed, { ok: false, message: "a.example: no TXT" });
  assertEquals(fillTemplate("{a.b} {missing} {sent}", { a: { b: 1 }, sent: false }), "1  no");
  assertEquals(outcomeFrom(200, { ok: true }, { expect: "ok=true", done: "fine" }, "").ok, true);
});
