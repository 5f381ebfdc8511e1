import { assertEquals } from "../../tests/assert.ts";
import {
  compressibleType,
  parseAcceptEncoding,
  pickCoding,
  preferenceOf,
  runtimeCompresses,
} from "./encoding.ts";

const both = () => true;
const pick = (v: string | null) => pickCoding(preferenceOf(v), both);

Deno.test("parseAcceptEncoding() orders br before gzip at equal q, and by q otherwise", () => {
  assertEquals(parseAcceptEncoding("gzip, deflate, br").order, ["br", "gzip"]);
  assertEquals(parseAcceptEncoding("br;q=0.2, gzip;q=0.9").order, ["gzip", "br"]);
  assertEquals(parseAcceptEncoding("gzip;q=0.5").order, ["gzip"]);
  assertEquals(parseAcceptEncoding("*;q=0.3").order, ["br", "gzip"]);
});

Deno.test("parseAcceptEncoding() honours q=0 and an identity rated above", () => {
  assertEquals(pick("br;q=0, gzip;q=0"), "identity");
  assertEquals(pick("*;q=0"), "identity");
  assertEquals(pick("identity;q=1, gzip;q=0.5"), "identity");
  assertEquals(pick("identity;q=0.5, gzip"), "gzip");
  assertEquals(pick("br;q=0.000"), "identity");
});

Deno.test("parseAcceptEncoding() reads malformed values as identity only", () => {
  for (const v of ["gzip;q=1.5", "br;q=", "br;q=0.1234", "gzip;foo=bar", "g zip", "br;;", "é"]) {
    assertEquals(pick(v), "identity", v);
  }
  assertEquals(pick(null), "identity");
  assertEquals(pick(""), "identity");
  assertEquals(pick(" , ,gzip"), "gzip");
});

Deno.test("pickCoding() falls back to the next coding the object has", () => {
  assertEquals(pickCoding(preferenceOf("br, gzip"), (c) => c === "gzip"), "gzip");
  assertEquals(pickCoding(preferenceOf("br"), (c) => c === "gzip"), "identity");
});

Deno.test("compressibleType() takes text, JSON, JS, SVG; not images, video, archives", () => {
  for (const t of ["application/json", "text/html; charset=utf-8", "image/svg+xml", "text/css"]) {
    assertEquals(compressibleType(t), true, t);
  }
  assertEquals(compressibleType("application/vnd.api+json"), true);
  for (const t of ["image/png", "video/mp4", "application/zip", "font/woff2", ""]) {
    assertEquals(compressibleType(t), false, t);
  }
});

Deno.test("runtimeCompresses() is true before Deno 2.9", () => {
  assertEquals(runtimeCompresses("2.5.7"), true);
  assertEquals(runtimeCompresses("2.9.6"), false);
  assertEquals(runtimeCompresses("3.0.0"), false);
});
