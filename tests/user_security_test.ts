/**
 * Security cases of /api/user kept together: another user's tokens are invisible and
 * unrevocable (404), a token's secret is shown once, sessions are required (401), and
 * bad input is 400 naming the field.
 */
import { assert, assertEquals } from "./assert.ts";
import { Client, dbTest, signUp } from "./harness.ts";
import { echoes, expectRefusals, over } from "./refusals.ts";

dbTest("user: every route is 401 without a session or with a revoked token", async (app) => {
  const anon = new Client(app);
  const routes: Array<[string, string, unknown]> = [
    ["GET", "/api/user/tokens", undefined],
    ["POST", "/api/user/tokens", { name: "x" }],
    ["DELETE", "/api/user/tokens/1", undefined],
    ["PATCH", "/api/user/profile", { name: "x" }],
    ["POST", "/api/user/change-password", { currentPassword: "a", newPassword: "b" }],
  ];
  await expectRefusals(
    anon,
    routes.map(([method, path, body]) => ({ method, path, body, status: 401 })),
  );
  const user = await signUp(app);
  const tok = await user.post("/api/user/tokens", { name: "cli" });
  assertEquals((await user.delete(`/api/user/tokens/${tok.body.id}`)).status, 200);
  const revoked = new Client(app);
  revoked.bearer = tok.body.token;
  await expectRefusals(revoked, [{ method: "GET", path: "/api/user/tokens", status: 401 }]);
});

dbTest("user: another user's token is 404 to revoke and never listed", async (app) => {
  const a = await signUp(app);
  const b = await signUp(app);
  const tok = await a.post("/api/user/tokens", { name: "a-token" });
  assertEquals(tok.status, 201);
  await expectRefusals(b, [
    { method: "DELETE", path: `/api/user/tokens/${tok.body.id}`, status: 404 },
  ]);
  const bList = await b.get("/api/user/tokens");
  assertEquals(bList.body.tokens, []);
  const aList = await a.get("/api/user/tokens");
  assertEquals(aList.body.tokens.length, 1, "still A's");
  assert(!echoes(aList.body, tok.body.token), "the secret is shown once, at creation");
});

dbTest("user: bad input is 400 naming the field, wrong password 403", async (app) => {
  const user = await signUp(app);
  const bad = (method: string, path: string, body: unknown, field: string) => ({
    method,
    path,
    body,
    status: 400,
    field,
  });
  await expectRefusals(user, [
    bad("POST", "/api/user/tokens", { name: "a\u0000b" }, "name"),
    bad("POST", "/api/user/tokens", { name: over(100) }, "name"),
    bad("POST", "/api/user/tokens", { name: 7 }, "name"),
    bad("PATCH", "/api/user/profile", { name: "n\u0000" }, "name"),
    bad("PATCH", "/api/user/profile", { name: over(120) }, "name"),
    bad("PATCH", "/api/user/profile", { name: ["x"] }, "name"),
    bad(
      "POST",
      "/api/user/change-password",
      { currentPassword: 1, newPassword: "x" },
      "currentPassword",
    ),
    bad(
      "POST",
      "/api/user/change-password",
      { currentPassword: "a", newPassword: over(200) },
      "newPassword",
    ),
    bad(
      "POST",
      "/api/user/change-password",
      { currentPassword: "a\u0000", newPassword: "b" },
      "currentPassword",
    ),
    { method: "DELETE", path: "/api/user/tokens/abc", status: 400 },
    { method: "DELETE", path: "/api/user/tokens/99999999999999999999", status: 400 },
    { method: "DELETE", path: "/api/user/tokens/2147483648", status: 400 },
    {
      method: "POST",
      path: "/api/user/change-password",
      body: { currentPassword: "wrong password", newPassword: "another good passphrase" },
      status: 403,
    },
  ]);
});
