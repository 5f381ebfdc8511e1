import { assertEquals } from "../tests/assert.ts";
import { compileRewriter, rewriteUrls } from "./rewrite.ts";

const T = "https://acme.cachely.example";
const img = {
  host: "res.cloudinary.com",
  cloudName: "demo",
  privateHost: "demo-res.cloudinary.com",
};

Deno.test("compileRewriter() rewrites every accepted image-host source form", () => {
  const r = compileRewriter({ tenantOrigin: T, imageHost: img });
  const cases: Array<[string, string]> = [
    ["https://res.cloudinary.com/demo/image/upload/v1/a/b.jpg", `${T}/image/upload/v1/a/b.jpg`],
    ["https://res.cloudinary.com/demo/video/upload/v2/c.mp4", `${T}/video/upload/v2/c.mp4`],
    [
      "https://res.cloudinary.com/demo/image/upload/w_800,h_600,c_fill/v1/a.jpg",
      `${T}/image/upload/w_800,h_600,c_fill/v1/a.jpg`,
    ],
    ["https://demo-res.cloudinary.com/image/upload/v1/p.jpg", `${T}/image/upload/v1/p.jpg`],
    ["http://res.cloudinary.com/demo/image/upload/v1/h.jpg", `${T}/image/upload/v1/h.jpg`],
    ["//res.cloudinary.com/demo/image/upload/v1/r.jpg", `${T}/image/upload/v1/r.jpg`],
  ];
  for (const [input, out] of cases) assertEquals(r(input), out, input);
});

Deno.test("compileRewriter() keeps JSON escaping and leaves other clouds and hosts alone", () => {
  const r = compileRewriter({ tenantOrigin: T, imageHost: img });
  assertEquals(
    r('{"u":"https:\\/\\/res.cloudinary.com\\/demo\\/image\\/upload\\/v1\\/a.jpg"}'),
    '{"u":"https:\\/\\/acme.cachely.example\\/image\\/upload\\/v1\\/a.jpg"}',
  );
  const untouched = [
    "https://res.cloudinary.com/other/image/upload/v1/a.jpg",
    "https://res.cloudinary.com/demo/raw/upload/v1/a.txt",
    "https://res.cloudinary.com.evil.example/demo/image/upload/v1/a.jpg",
    "https://evil.example/https://res.cloudinary.com/demo/image/upload/v1/a.jpg",
    "https://other-res.cloudinary.com/image/upload/v1/a.jpg",
  ];
  for (const u of untouched) assertEquals(r(u), u, u);
});

Deno.test("compileRewriter() keeps the cloud name when keepCloudName is set", () => {
  const r = compileRewriter({ tenantOrigin: T, imageHost: { ...img, keepCloudName: true } });
  assertEquals(
    r("https://demo-res.cloudinary.com/image/upload/v1/p.jpg"),
    `${T}/demo/image/upload/v1/p.jpg`,
  );
});

Deno.test("rewriteUrls() maps allow-listed asset hosts to /~assets/<host>/", () => {
  const rules = { tenantOrigin: T, assetHosts: ["images.ctfassets.net", "cdn.sanity.io"] };
  assertEquals(
    rewriteUrls(
      '<img src="https://images.ctfassets.net/s/a.png"> url(//cdn.sanity.io/x.jpg)',
      rules,
    ),
    `<img src="${T}/~assets/images.ctfassets.net/s/a.png"> url(${T}/~assets/cdn.sanity.io/x.jpg)`,
  );
  assertEquals(
    rewriteUrls("https://images.ctfassets.netx/a", rules),
    "https://images.ctfassets.netx/a",
  );
  assertEquals(rewriteUrls("plain text", { tenantOrigin: T }), "plain text");
});
