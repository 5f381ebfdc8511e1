import { assert, assertEquals } from "../tests/assert.ts";
import { createResponseTransformer, transformResponse } from "./transformer.ts";
import { createUrlRewriter, rewriteUrl } from "./url.ts";

const base = "https://acme.cachely.example";
const src = "https://res.cloudinary.com/demo/image/upload/w_800,h_600,c_fill/v1/cat.jpg";

Deno.test("transformResponse() rewrites image-host URLs to {tenant}/image/upload/…", () => {
  const out = transformResponse({ items: [{ img: src }], n: 1 }, { base, cloudName: "demo" });
  assertEquals(out, {
    items: [{ img: `${base}/image/upload/w_800,h_600,c_fill/v1/cat.jpg` }],
    n: 1,
  });
});

Deno.test("createResponseTransformer() runs transformers with the JSON and base, then postTransform", () => {
  const seen: Array<[string, string]> = [];
  const t = createResponseTransformer<{ img: string; extra?: boolean }>({
    base: `${base}/`,
    cloudName: "demo",
    transformers: [(json, b) => {
      seen.push([json, b]);
      return json.replace("{", '{"extra":true,');
    }],
    postTransform: (d) => ({ ...d, done: true } as typeof d),
  });
  const out = t({ img: src });
  assertEquals(seen[0][1], base);
  assertEquals(out.extra, true);
  assert(seen[0][0].includes(`${base}/image/upload/`), "defaults ran first");
  assertEquals((out as Record<string, unknown>).done, true);
});

Deno.test("without onError a failure warns and returns the original data unchanged", () => {
  const warnings: unknown[] = [];
  const orig = console.warn;
  console.warn = (...a: unknown[]) => void warnings.push(a);
  try {
    const data = { img: src };
    const out = transformResponse(data, {
      base,
      cloudName: "demo",
      transformers: [() => "{not json"],
    });
    assertEquals(out, data);
    assertEquals(out.img, src);
    assertEquals(warnings.length, 1);
  } finally {
    console.warn = orig;
  }
});

Deno.test("onError decides the result of a failure", () => {
  const out = transformResponse({ a: 1 }, {
    base,
    postTransform: () => {
      throw new Error("boom");
    },
    onError: (e) => ({ a: -1, msg: (e as Error).message }) as never,
  });
  assertEquals(out, { a: -1, msg: "boom" });
});

Deno.test("an invalid base is a failure handled the same way", () => {
  let caught: unknown = null;
  const data = { img: src };
  const out = transformResponse(data, {
    base: "not a url",
    cloudName: "demo",
    onError: (e) => {
      caught = e;
    },
  });
  assertEquals(out, data);
  assert(caught instanceof TypeError);
});

Deno.test("rewriteUrl() keeps the cloud name as the first path segment", () => {
  assertEquals(
    rewriteUrl(src, { base, cloudName: "demo" }),
    `${base}/demo/image/upload/w_800,h_600,c_fill/v1/cat.jpg`,
  );
  const r = createUrlRewriter({ base, cloudName: "demo" });
  assertEquals(
    r("https://demo-res.cloudinary.com/video/upload/v1/a.mp4"),
    `${base}/demo/video/upload/v1/a.mp4`,
  );
  assertEquals(r("https://example.org/a.jpg"), "https://example.org/a.jpg");
});

Deno.test("transformResponse() with a provider config writes the server's clean URLs", () => {
  const data = {
    hero: { url: "//images.ctfassets.net/space1/a/t/hero.jpg?w=10" },
    body: '<p><a href="https://assets.ctfassets.net/space1/b/t/doc.pdf">doc</a></p>',
  };
  const out = transformResponse(data, {
    base: "https://acme.cachely.example",
    provider: { cms: "contentful", spaceId: "space1" },
  });
  assertEquals(out, {
    hero: { url: "https://acme.cachely.example/a/t/hero.jpg?w=10" },
    body: '<p><a href="https://acme.cachely.example/b/t/doc.pdf">doc</a></p>',
  });
});
