import { assert, assertEquals, assertMatch, assertRejects, assertThrows } from "./assert.ts";
import { ConfigError, loadConfig } from "../lib/config.ts";
import { ensureEncryptionKey } from "../lib/secrets_bootstrap.ts";

const KEY = btoa("0123456789abcdef0123456789abcdef");

function configError(env: Record<string, string>): string {
  const e = assertThrows(() => loadConfig(env));
  assert(e instanceof ConfigError, String(e));
  return e.message;
}

// ---- happy ----

Deno.test("loadConfig() fills defaults from PORT and treats empty values as unset", () => {
  const c = loadConfig({ PORT: "9001", PUBLIC_URL: "", LOG_LEVEL: "" });
  assertEquals(c.port, 9001);
  assertEquals(c.proxyDomain, "localhost:9001");
  assertEquals(c.publicUrl, "http://localhost:9001");
  assertEquals(c.dataDir, ".data");
  assertEquals(c.logLevel, "info");
  assertEquals(c.allowPrivateUpstreams, false, "listening on every interface: private refused");
  assertEquals(c.mailTransportUrl, undefined);
});

Deno.test("loadConfig() allows private upstreams by default only when listening on loopback", () => {
  for (const host of ["127.0.0.1", "::1", "[::1]", "localhost", "127.1.2.3"]) {
    assertEquals(loadConfig({ HOST: host }).allowPrivateUpstreams, true, host);
  }
  for (const host of ["0.0.0.0", "::", "10.0.0.5", "example.com", "127.0.0.1.example.com"]) {
    assertEquals(loadConfig({ HOST: host }).allowPrivateUpstreams, false, host);
  }
  assertEquals(
    loadConfig({ HOST: "0.0.0.0", ALLOW_PRIVATE_UPSTREAMS: "1" }).allowPrivateUpstreams,
    true,
  );
  assertEquals(
    loadConfig({ HOST: "::1", ALLOW_PRIVATE_UPSTREAMS: "no" }).allowPrivateUpstreams,
    false,
  );
});

Deno.test("loadConfig() turns private upstreams off by default when DATABASE_URL is set", () => {
  const c = loadConfig({ DATABASE_URL: "postgres://u@db:5432/x", ENCRYPTION_KEY: KEY });
  assertEquals(c.allowPrivateUpstreams, false);
  assertEquals(c.encryptionKey, KEY);
  const on = loadConfig({ DATABASE_URL: "postgres://db/x", ALLOW_PRIVATE_UPSTREAMS: "true" });
  assertEquals(on.allowPrivateUpstreams, true);
  const admins = loadConfig({ ADMIN_EMAILS: " Root@Example.com, ops@example.com ,," });
  assertEquals([...admins.adminEmails], ["root@example.com", "ops@example.com"]);
});

Deno.test("ensureEncryptionKey() generates the embedded key once under DATA_DIR and reuses it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const first = await ensureEncryptionKey(loadConfig({ DATA_DIR: `${dir}/data` }));
    const key = first.encryptionKey!;
    assertEquals(atob(key).length, 32);
    const file = `${dir}/data/encryption.key`;
    assertEquals((await Deno.readTextFile(file)).trim(), key);
    if (Deno.build.os !== "windows") assertEquals((await Deno.stat(file)).mode! & 0o777, 0o600);
    const second = await ensureEncryptionKey(loadConfig({ DATA_DIR: `${dir}/data` }));
    assertEquals(second.encryptionKey, key, "the same key on the next start");
    const given = await ensureEncryptionKey(
      loadConfig({ DATA_DIR: `${dir}/other`, ENCRYPTION_KEY: KEY }),
    );
    assertEquals(given.encryptionKey, KEY);
    await assertRejects(() => Deno.stat(`${dir}/other`), "nothing written when a key is given");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// ---- errors ----

Deno.test("loadConfig() names the variable of every bad value", () => {
  const cases: Array<[Record<string, string>, string]> = [
    [{ PORT: "eighty" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ PUBLIC_URL: "ftp://example.com" }, "PUBLIC_URL"],
    [{ DATABASE_URL: "mysql://db/x" }, "DATABASE_URL"],
    [{ DATABASE_URL: "postgres://app:pa#ss@db:5432/x" }, "DATABASE_URL"],
    [{ DATABASE_URL: "postgres://app@db:port/x" }, "DATABASE_URL"],
    [{ MIGRATION_DATABASE_URL: "postgresql://app:a#b@db/x" }, "MIGRATION_DATABASE_URL"],
    [{ ENCRYPTION_KEY: btoa("too short") }, "ENCRYPTION_KEY"],
    [{ ALLOW_PRIVATE_UPSTREAMS: "maybe" }, "ALLOW_PRIVATE_UPSTREAMS"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    [{ PROXY_DOMAIN: "bad domain!" }, "PROXY_DOMAIN"],
    [{ MAIL_TRANSPORT_URL: "not a url" }, "MAIL_TRANSPORT_URL"],
    [{ SESSION_TTL_HOURS: "0" }, "SESSION_TTL_HOURS"],
    [{ REQUEST_LOG_SAMPLE_RATE: "2" }, "REQUEST_LOG_SAMPLE_RATE"],
    [{ EDGE_MEMORY_LIMIT_MB: "127" }, "EDGE_MEMORY_LIMIT_MB"],
    [{ EDGE_MEMORY_LIMIT_MB: "lots" }, "EDGE_MEMORY_LIMIT_MB"],
  ];
  for (const [env, name] of cases) {
    assertMatch(configError(env), new RegExp(`^\\s*${name}: `, "m"), name);
  }
  const both = configError({ PORT: "x", LOG_LEVEL: "y" });
  assertMatch(both, /PORT: /);
  assertMatch(both, /LOG_LEVEL: /);
});

Deno.test("a DATABASE_URL error says how to mend it and never quotes the URL", () => {
  const msg = configError({ DATABASE_URL: "postgres://app:s3cr#t@db.example.com:5432/x" });
  assertMatch(msg, /DATABASE_URL: is not a valid URL \(percent-encode/);
  assert(!msg.includes("s3cr") && !msg.includes("db.example.com"), msg);
  // What postgres.js reads is valid here too: IPv6, several hosts, an encoded password.
  for (
    const url of [
      "postgres://app@[2001:db8::1]:5432/x",
      "postgres://app@h1:5432,h2:5433/x",
      "postgresql://app:s3cr%23t@db/x?sslmode=require",
    ]
  ) assertEquals(loadConfig({ DATABASE_URL: url, ENCRYPTION_KEY: KEY }).databaseUrl, url);
});

Deno.test("EDGE_MEMORY_LIMIT_MB: 512 on Deno Deploy unless set, no guard elsewhere", () => {
  assertEquals(loadConfig({}).edgeMemoryLimitMb, undefined);
  assertEquals(loadConfig({ EDGE_MEMORY_LIMIT_MB: "128" }).edgeMemoryLimitMb, 128);
  assertEquals(loadConfig({ DENO_DEPLOYMENT_ID: "abc123" }).edgeMemoryLimitMb, 512);
  const deploy = { DENO_DEPLOYMENT_ID: "abc123", EDGE_MEMORY_LIMIT_MB: "300" };
  assertEquals(loadConfig(deploy).edgeMemoryLimitMb, 300);
});

Deno.test("ensureEncryptionKey() refuses DATABASE_URL without ENCRYPTION_KEY", async () => {
  const e = await assertRejects(() =>
    ensureEncryptionKey(loadConfig({ DATABASE_URL: "postgres://db/x" }))
  );
  assert(e instanceof ConfigError);
  assertMatch(e.message, /ENCRYPTION_KEY: is required when DATABASE_URL is set/);
});

Deno.test("main.ts stops with exit code 1 and names the variable on a bad environment", async () => {
  const cases: Array<[Record<string, string>, RegExp]> = [
    [{ PORT: "eighty" }, /PORT: /],
    [{ EDGE_MEMORY_LIMIT_MB: "100" }, /EDGE_MEMORY_LIMIT_MB: must be at least 128/],
    [{ DATABASE_URL: "postgres://127.0.0.1:1/none" }, /ENCRYPTION_KEY: is required/],
  ];
  for (const [env, expected] of cases) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "main.ts"],
      cwd: new URL("..", import.meta.url).pathname,
      env: { ...env, ENCRYPTION_KEY: "", NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assertEquals(out.code, 1, stderr);
    assertMatch(stderr, expected);
  }
});

Deno.test("CNAME_TARGETS: a list of hostnames, lower-cased; anything else refused by name", () => {
  assertEquals(
    loadConfig({ CNAME_TARGETS: "Proxy.Old.example, cdn.old.example," }).legacyCnameTargets,
    ["proxy.old.example", "cdn.old.example"],
  );
  assertEquals(loadConfig({}).legacyCnameTargets, []);
  assertMatch(configError({ CNAME_TARGETS: "proxy.old.example, not a host" }), /CNAME_TARGETS/);
});
