/**
 * Bad path parameters across every declared route: each parameter in turn holds a NUL, an
 * invalid UTF-8 sequence (a lone surrogate's bytes), a huge value or a traversal, the others
 * a real slug or id; anonymous and as a master admin who owns the tenant. Never a 500; a NUL
 * is a 400 that names the parameter (before any access check). A lone surrogate in a JSON string (an experiment's
 * name on PATCH) is a 400 naming the field.
 */
import { assert, assertEquals, assertStringIncludes } from "./assert.ts";
import { Client, createTenant, dbTest, signUp } from "./harness.ts";
import { apiDeclarations } from "../routes/api/mod.ts";

const KEY = "k".repeat(24);
const BAD = ["%00", "a%00b", "%ED%A0%80", "%F0%9F", "x".repeat(6000), "..%2F..%2Fadmin", "%C0%AE"];

dbTest("bad path parameters never make any declared route answer 500", async (app) => {
  const root = await signUp(app, "root@example.com");
  const anon = new Client(app);
  const slug = await createTenant(root);
  const good = (name: string) => name === "slug" ? slug : name === "userId" ? root.userId : "1";
  const failures: string[] = [];
  let requests = 0;
  const routes = apiDeclarations().filter((r) => r.path.includes("/:"));
  assert(routes.length >= 40, `${routes.length} routes with parameters`);
  for (const r of routes) {
    const names = [...r.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
    for (const target of names) {
      for (const bad of BAD) {
        const path = "/api" + r.path.replace(
          /:(\w+)(\{[^}]*\})?/g,
          (_, name: string) => name === target ? bad : good(name),
        );
        for (const who of [root, anon]) {
          const res = await who.request(r.method, path, r.body ? {} : undefined, {
            "x-ingest-key": KEY,
            "x-ai-transform-key": KEY,
          });
          requests++;
          if (res.status >= 500) failures.push(`${res.status} ${r.method} ${path.slice(0, 120)}`);
          if (bad.includes("%00") && !(res.body?.error?.message ?? "").includes(target)) {
            failures.push(`${res.status} ${r.method} ${r.path}: ${res.text.slice(0, 100)}`);
          }
        }
      }
    }
  }
  assertEquals(
    failures,
    [],
    `${failures.length} of ${requests} requests answered 500 or left the NUL parameter unnamed`,
  );
}, { env: { ADMIN_EMAILS: "root@example.com", INGEST_KEY: KEY, AI_TRANSFORM_KEY: KEY } });

dbTest("a NUL in a slug is a 400 naming the slug, anonymous too", async (app) => {
  const res = await new Client(app).post("/api/tenants/%00/webhook", {});
  assertEquals(res.status, 400, res.text);
  assertStringIncludes(res.body.error.message, "slug");
});

dbTest("a lone surrogate in an experiment name on PATCH is a 400 naming the field", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const c = await owner.post(`/api/tenants/${slug}/ai-experiments`, {
    name: "Tone",
    routePattern: "/posts",
    variants: [{ key: "control" }, { key: "casual" }],
  });
  assertEquals(c.status, 201, c.text);
  // JSON.stringify writes a lone surrogate as the escape \ud800, which JSON.parse restores.
  const res = await owner.patch(`/api/tenants/${slug}/ai-experiments/${c.body.id}`, {
    name: "A\ud800B",
  });
  assertEquals(res.status, 400, res.text);
  assertStringIncludes(res.body.error.message, "name");
  const created = await owner.post(`/api/tenants/${slug}/ai-experiments`, {
    name: "\udc00",
    routePattern: "/x",
    variants: [{ key: "control" }, { key: "b" }],
  });
  assertEquals(created.status, 400, created.text);
});
