/**
 * Request schemas build strings from the one shared type, str() (lib/base/text.ts), which
 * refuses NUL: a new `z.string()` in routes/ or lib/ fails here. lib/config.ts parses the
 * environment, not requests, and is exempt; so are response shapes (`*_schema.ts` beside
 * their builder, docs/architecture.md "Declaring an API route"), which describe what the API
 * sends and parse no input. So that exemption cannot hide a request schema, every declared
 * route's `body` and `query` is also walked for a plain string.
 */
import { z } from "zod";
import { assertEquals } from "./assert.ts";
import { apiDeclarations } from "../routes/api/mod.ts";

const EXEMPT = new Set(["lib/config.ts", "lib/base/text.ts"]);
const RESPONSE_SHAPES = /_schema\.ts$/;

async function* sources(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(new URL(`../${dir}`, import.meta.url))) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) yield* sources(path);
    else if (/\.tsx?$/.test(e.name) && !/_test\.tsx?$/.test(e.name)) yield path;
  }
}

Deno.test("no request schema uses z.string() instead of str()", async () => {
  const offenders: string[] = [];
  for (const dir of ["routes", "lib"]) {
    for await (const path of sources(dir)) {
      if (EXEMPT.has(path) || RESPONSE_SHAPES.test(path)) continue;
      const text = await Deno.readTextFile(new URL(`../${path}`, import.meta.url));
      if (/\bz\.string\(/.test(text)) offenders.push(path);
    }
  }
  assertEquals(offenders, []);
});

type Def = { type: string; format?: string; checks?: { _zod: { def: { check: string } } }[] };

/** Paths of plain strings (no format, no str() refinement) anywhere in a schema. */
function plainStrings(schema: z.ZodType, path = "", seen = new Set<unknown>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = (schema as unknown as { _zod: { def: Def & Record<string, unknown> } })._zod.def;
  if (def.type === "string") {
    const refined = (def.checks ?? []).some((c) => c._zod.def.check === "custom");
    return def.format || refined ? [] : [path || "(root)"];
  }
  const out: string[] = [];
  const visit = (v: unknown, p: string) => {
    if (v && typeof v === "object" && "_zod" in v) {
      out.push(...plainStrings(v as z.ZodType, p, seen));
    }
  };
  for (const [k, v] of Object.entries(def)) {
    if (k === "shape" && v && typeof v === "object") {
      for (const [field, s] of Object.entries(v)) visit(s, path ? `${path}.${field}` : field);
    } else if (Array.isArray(v)) v.forEach((s) => visit(s, path));
    else visit(v, path);
  }
  return out;
}

Deno.test("no declared request body or query holds a plain string", () => {
  const offenders = apiDeclarations().flatMap((r) =>
    (["body", "query"] as const).flatMap((part) =>
      r[part] ? plainStrings(r[part]).map((p) => `${r.method} ${r.path} ${part} ${p}`) : []
    )
  );
  assertEquals(offenders, []);
});

Deno.test("the walk finds a plain string and accepts str() and formats", async () => {
  const { str } = await import("../lib/base/text.ts");
  const schema = z.object({ a: z.string(), b: str(), c: z.email(), d: z.array(z.string().min(1)) });
  assertEquals(plainStrings(schema), ["a", "d"]);
});
