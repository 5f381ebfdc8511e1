/**
 * SSRF guard against corpora/ssrf-must-block-urls.json. Entries whose host is an IP
 * literal (in any spelling), a non-http(s) scheme, credentials or an unparseable URL
 * must be refused by shape alone, even when DNS would say "public"; entries with a
 * name are refused when the (stubbed) resolver returns the private address those
 * names are built to resolve to (nip.io, rebinding services, …).
 */
import { assert, assertEquals, assertRejects } from "../../tests/assert.ts";
import { assertSafeUrl, checkUrlShape, type Resolver, UnsafeUrlError } from "./ssrf.ts";
import { isIpLiteral } from "./ip.ts";

const corpus = JSON.parse(
  Deno.readTextFileSync(
    new URL("../../tests/fixtures/corpora/ssrf-must-block-urls.json", import.meta.url),
  ),
) as { must_block: Record<string, string[]>; must_allow_examples: string[] };

const ALL = Object.values(corpus.must_block).flat();
const POLICY = { allowPrivate: false, requireHttps: false };

/** A resolver that answers every name with a public address: DNS cannot be what saves us. */
const publicDns: Resolver = (_h, t) => Promise.resolve(t === "A" ? ["93.184.215.14"] : []);
/** A resolver that answers like the rebinding and wildcard services do: a private address. */
const privateDns: Resolver = (_h, t) => Promise.resolve(t === "A" ? ["127.0.0.1"] : ["::1"]);

function hostOf(raw: string): string | null {
  try {
    return new URL(raw).hostname;
  } catch {
    return null;
  }
}

/** Blocked without any DNS help: bad scheme, unparseable, credentials, or a literal address. */
function literalOrScheme(raw: string): boolean {
  const host = hostOf(raw);
  if (host === null) return true;
  const u = new URL(raw);
  if (u.protocol !== "http:" && u.protocol !== "https:") return true;
  if (u.username || u.password) return true;
  return isIpLiteral(host) || host === "localhost" || !host.includes(".");
}

Deno.test("assertSafeUrl() refuses every literal-IP and scheme entry even with public DNS", async () => {
  const literal = ALL.filter(literalOrScheme);
  assert(literal.length > 60, `corpus split: ${literal.length} literal entries`);
  const allowed: string[] = [];
  for (const raw of literal) {
    try {
      await assertSafeUrl(raw, POLICY, publicDns);
      allowed.push(raw);
    } catch (e) {
      if (!(e instanceof UnsafeUrlError)) throw e;
    }
  }
  assertEquals(allowed, []);
});

Deno.test("assertSafeUrl() refuses the named entries when they resolve privately", async () => {
  const named = ALL.filter((u) => !literalOrScheme(u));
  assert(named.length > 0);
  for (const raw of named) {
    await assertRejects(() => assertSafeUrl(raw, POLICY, privateDns), raw);
  }
});

Deno.test("assertSafeUrl() allows the corpus's public examples", async () => {
  for (const raw of corpus.must_allow_examples) {
    const url = await assertSafeUrl(raw, POLICY, publicDns);
    assertEquals(url.hostname, "example.com");
  }
});

Deno.test("assertSafeUrl() refuses a name that resolves to one private address among public ones", async () => {
  const mixed: Resolver = (_h, t) =>
    Promise.resolve(t === "A" ? ["93.184.215.14", "10.0.0.5"] : []);
  const e = await assertRejects(() => assertSafeUrl("https://example.com/", POLICY, mixed));
  assert(e instanceof UnsafeUrlError);
  const none: Resolver = () => Promise.resolve([]);
  await assertRejects(() => assertSafeUrl("https://example.com/", POLICY, none), "no address");
});

Deno.test("checkUrlShape() requires https when asked and private addresses are off", () => {
  let err: unknown;
  try {
    checkUrlShape("http://example.com", { allowPrivate: false, requireHttps: true });
  } catch (e) {
    err = e;
  }
  assert(err instanceof UnsafeUrlError && err.message === "must use https");
  assertEquals(
    checkUrlShape("http://127.0.0.1:9/", { allowPrivate: true, requireHttps: true }).port,
    "9",
    "the embedded default allows loopback upstreams",
  );
});
