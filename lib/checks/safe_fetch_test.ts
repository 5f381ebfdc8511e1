import { assert, assertEquals } from "../../tests/assert.ts";
import { safeFetch, type SafeFetchDeps } from "./safe_fetch.ts";

/** Public DNS for *.site.test, private for *.internal.test. */
const dns = ((host: string, type: string) => {
  if (type !== "A") return Promise.resolve([]);
  if (host.endsWith("internal.test")) return Promise.resolve(["10.0.0.7"]);
  return Promise.resolve(["93.184.215.14"]);
}) as unknown as typeof Deno.resolveDns;

function deps(routes: Record<string, (init?: RequestInit) => Response | Promise<Response>>) {
  const seen: string[] = [];
  const d: SafeFetchDeps = {
    fetch: ((input: URL, init?: RequestInit) => {
      const u = String(input);
      seen.push(u);
      const r = routes[u];
      if (!r) return Promise.reject(new TypeError("connection refused"));
      return Promise.resolve(r(init));
    }) as typeof fetch,
    resolveDns: dns,
    allowPrivate: false,
    timeoutMs: 200,
  };
  return { d, seen };
}

const redirect = (to: string) => () =>
  new Response(null, { status: 302, headers: { location: to } });
const html = (body = "<p>hi</p>") => () =>
  new Response(body, { headers: { "content-type": "text/html" } });

Deno.test("safeFetch() follows redirects and reports the final URL", async () => {
  const { d, seen } = deps({
    "https://www.site.test/": redirect("/home"),
    "https://www.site.test/home": redirect("https://other.site.test/"),
    "https://other.site.test/": html("<h1>ok</h1>"),
  });
  const r = await safeFetch(d, "https://www.site.test/");
  assert(r.ok);
  assertEquals([r.finalUrl, r.status, r.body, r.truncated], [
    "https://other.site.test/",
    200,
    "<h1>ok</h1>",
    false,
  ]);
  assertEquals(seen.length, 3);
});

Deno.test("safeFetch() refuses a redirect to a private address without connecting", async () => {
  const { d, seen } = deps({
    "https://www.site.test/": redirect("http://admin.internal.test/secret"),
    "http://admin.internal.test/secret": html(),
  });
  const r = await safeFetch(d, "https://www.site.test/");
  assertEquals(r, {
    ok: false,
    finalUrl: "http://admin.internal.test/secret",
    error: "unsafe_url",
    message: "Refused: host resolves to a non-public address",
  });
  assertEquals(seen, ["https://www.site.test/"]);
  const literal = await safeFetch(
    deps({ "https://www.site.test/": redirect("http://127.0.0.1:5432/") }).d,
    "https://www.site.test/",
  );
  assert(!literal.ok && literal.error === "unsafe_url");
});

Deno.test("safeFetch() stops after 5 redirects", async () => {
  const routes: Record<string, () => Response> = {};
  for (let i = 0; i < 7; i++) routes[`https://www.site.test/${i}`] = redirect(`/${i + 1}`);
  const { d, seen } = deps(routes);
  const r = await safeFetch(d, "https://www.site.test/0");
  assertEquals(r, {
    ok: false,
    finalUrl: "https://www.site.test/5",
    error: "too_many_redirects",
    message: "More than 5 redirects",
  });
  assertEquals(seen.length, 6, "the first request plus 5 redirects");
});

Deno.test("safeFetch() times out, and reports connection failures", async () => {
  const { d } = deps({
    "https://slow.site.test/": (init) =>
      new Promise((_res, rej) =>
        init!.signal!.addEventListener("abort", () => rej(init!.signal!.reason))
      ),
  });
  const t0 = Date.now();
  const r = await safeFetch(d, "https://slow.site.test/");
  assertEquals(r, {
    ok: false,
    finalUrl: "https://slow.site.test/",
    error: "timeout",
    message: "Timed out after 200 ms",
  });
  assert(Date.now() - t0 < 2000);
  const down = await safeFetch(d, "https://down.site.test/");
  assert(!down.ok && down.error === "fetch_failed");
});

Deno.test("safeFetch() reads at most maxBytes of the body", async () => {
  const { d } = deps({ "https://big.site.test/": html("x".repeat(5000)) });
  const r = await safeFetch({ ...d, maxBytes: 1000 }, "https://big.site.test/");
  assert(r.ok);
  assertEquals([r.body.length, r.truncated], [1000, true]);
  const exact = await safeFetch({ ...d, maxBytes: 5000 }, "https://big.site.test/");
  assert(exact.ok);
  assertEquals([exact.body.length, exact.truncated], [5000, false]);
});

Deno.test("safeFetch() refuses every must-block corpus URL without a connection", async () => {
  const corpus = JSON.parse(
    Deno.readTextFileSync(
      new URL("../../tests/fixtures/corpora/ssrf-must-block-urls.json", import.meta.url),
    ),
  ) as { must_block: Record<string, string[]> };
  // Named entries are built to resolve to private addresses (nip.io, rebinding services…).
  const privateDns =
    ((_h: string, t: string) =>
      Promise.resolve(t === "A" ? ["127.0.0.1"] : ["::1"])) as unknown as typeof Deno.resolveDns;
  let connects = 0;
  const d: SafeFetchDeps = {
    fetch: (() => {
      connects++;
      return Promise.resolve(new Response("x"));
    }) as typeof fetch,
    resolveDns: privateDns,
    allowPrivate: false,
    timeoutMs: 1000,
  };
  const all = Object.values(corpus.must_block).flat();
  assert(all.length > 100, `corpus has ${all.length} entries`);
  for (const raw of all) {
    const r = await safeFetch(d, raw);
    assert(!r.ok && r.error === "unsafe_url", raw);
  }
  assertEquals(connects, 0);
});
