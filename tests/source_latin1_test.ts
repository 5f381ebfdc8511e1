/**
 * The app's sources stay within Latin-1 (docs/decisions.md "Edge cache memory"). V8 keeps every
 * module's source, with the inline source map Deno adds, as a string for the process's life,
 * and one character above U+00FF stores the whole string as UTF-16: twice the bytes, in the
 * idle heap that V8 lets its old generation grow to several times over under load.
 * Comments use ASCII; strings use `\u` escapes, which Deno's emit keeps (a JSX entity such as
 * `&rarr;` is emitted as the character itself, so it counts too).
 */
import { assertEquals } from "./assert.ts";
import { appSourceFiles, ROOT } from "./app_sources.ts";

/** HTML entities JSX decodes to a character above U+00FF (the ones a page would use). */
const WIDE_ENTITY =
  /&(hellip|rarr|larr|harr|mdash|ndash|minus|le|ge|ne|infin|lsquo|rsquo|ldquo|rdquo|bull|trade|euro|#(?:[2-9]\d{2,}|x[1-9a-f][0-9a-f]{2,}));/;

export function wideCharacters(text: string): { line: number; what: string }[] {
  const found: { line: number; what: string }[] = [];
  text.split("\n").forEach((l, i) => {
    for (const ch of l) {
      if (ch.codePointAt(0)! > 0xff) {
        found.push({ line: i + 1, what: `U+${ch.codePointAt(0)!.toString(16).toUpperCase()}` });
      }
    }
    const e = WIDE_ENTITY.exec(l);
    if (e) found.push({ line: i + 1, what: e[0] });
  });
  return found;
}

Deno.test("wideCharacters finds characters and entities above Latin-1, not escapes", () => {
  assertEquals(wideCharacters('const a = "caf\u00e9 \\u2026";'), []);
  assertEquals(wideCharacters("// a \u2192 b\nx"), [{ line: 1, what: "U+2192" }]);
  assertEquals(wideCharacters("<a>Older &rarr;</a> &amp;"), [{ line: 1, what: "&rarr;" }]);
  assertEquals(wideCharacters("ok\n\u{1F600}"), [{ line: 2, what: "U+1F600" }]);
});

Deno.test("the app's sources have no character above U+00FF", async () => {
  const found: string[] = [];
  for (const f of await appSourceFiles()) {
    const text = await Deno.readTextFile(new URL(f, ROOT));
    for (const w of wideCharacters(text)) found.push(`${f}:${w.line} ${w.what}`);
  }
  assertEquals(found, [], "use ASCII in comments and \\u escapes in strings");
});
