/**
 * Request schemas build strings from the one shared type, str() (lib/http/text.ts), which
 * refuses NUL: a new `z.string()` in routes/ or lib/ fails here. lib/config.ts parses the
 * environment, not requests, and is exempt.
 */
import { assertEquals } from "./assert.ts";

const EXEMPT = new Set(["lib/config.ts", "lib/http/text.ts"]);

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
      if (EXEMPT.has(path)) continue;
      const text = await Deno.readTextFile(new URL(`../${path}`, import.meta.url));
      if (/\bz\.string\(/.test(text)) offenders.push(path);
    }
  }
  assertEquals(offenders, []);
});
