/**
 * Page tests assert on structure (roles, labels, links, `data-*` attributes), not on copy:
 * a wording change must not break them, and a structure change must. This test finds the
 * literal copy page tests still look for: a string or regex literal given to
 * `assertStringIncludes`, `assertMatch`, `assertNotMatch`, `.includes(`, `.match(` or
 * `.test(` that reads as prose (three words starting with a capital, or four words), with no
 * markup, attribute or path in it (`aria-label="Add a domain"` is structure).
 *
 * `NOT_CONVERTED` is the shrink-only list of files that still do, with how many such
 * literals each holds: a count may only go down (lower it when a test is converted), and a
 * file not listed may hold none.
 */
import { assertEquals } from "./assert.ts";

const TESTS = new URL("./", import.meta.url);

/** Copy literals per page test file not converted yet; lower a count when converting. */
const NOT_CONVERTED: Record<string, number> = {
  "account_pages_test.ts": 2,
  "admin_pages_test.ts": 3,
  "auth_pages_test.ts": 1,
  "dashboard_pages_test.tsx": 2,
};

/** Page tests: tests whose name says page or dashboard (this file aside). */
function pageTests(): string[] {
  return [...Deno.readDirSync(TESTS)]
    .map((e) => e.name)
    .filter((n) => /(page|dashboard)\w*_test\.tsx?$/.test(n) && n !== "page_copy_test.ts")
    .sort();
}

const WORD = /^[A-Za-z][A-Za-z'’-]*[,.:;!?]?$/;

/** Whether a literal's text reads as prose copy rather than structure or data. */
function isCopy(text: string): boolean {
  return text.replace(/\$\{[^}]*\}/g, " ").split("|").some((alternative) => {
    if (/[<>=/@#{}]/.test(alternative)) return false; // markup, attributes, paths, addresses
    let run = 0;
    let longest = 0;
    let capitalStart = false;
    for (const token of alternative.trim().split(/\s+/)) {
      if (WORD.test(token)) {
        if (run === 0) capitalStart = /^[A-Z]/.test(token);
        run++;
        longest = Math.max(longest, run);
        if (run >= 4 || (run >= 3 && capitalStart)) return true;
      } else run = 0;
    }
    return longest >= 4;
  });
}

const CALL = /(?:assertStringIncludes|assertMatch|assertNotMatch|\.includes|\.match|\.test)\(/g;
const LITERAL =
  /"((?:\\.|[^"\\\n])*)"|'((?:\\.|[^'\\\n])*)'|`((?:\\.|[^`\\])*)`|\/((?:\\.|[^/\\\n])+)\/[gimsuy]*/g;

/** The top-level arguments of the call whose `(` is at `open` (strings skipped). */
function argumentsAt(src: string, open: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open; i < src.length && i < open + 600; i++) {
    const c = src[i];
    if (c === '"' || c === "'" || c === "`") {
      const end = src.indexOf(c, i + 1);
      if (end < 0) break;
      i = end;
    } else if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === "," && depth === 1) {
      args.push(src.slice(start, i));
      start = i + 1;
    } else if ((c === ")" || c === "]" || c === "}") && --depth === 0) {
      args.push(src.slice(start, i));
      return args;
    }
  }
  return args;
}

/** The copy literals `src` (a test file's text) asserts on; assertion messages aside. */
function copyAssertions(src: string): string[] {
  const found: string[] = [];
  for (const m of src.matchAll(CALL)) {
    const args = argumentsAt(src, m.index + m[0].length - 1);
    let searched: string;
    if (m[0] === ".test(") {
      // the pattern is the regex literal before `.test(`
      searched =
        /\/(?:\\.|[^/\\\n])+\/[gimsuy]*$/.exec(src.slice(Math.max(0, m.index - 300), m.index))
          ?.[0] ?? "";
    } else searched = (m[0].startsWith(".") ? args[0] : args[1]) ?? "";
    const texts = [...searched.matchAll(LITERAL)].map((l) => l[1] ?? l[2] ?? l[3] ?? l[4]);
    for (const t of texts) if (isCopy(t)) found.push(t);
  }
  return found;
}

Deno.test("page tests assert on structure, not copy (NOT_CONVERTED only shrinks)", () => {
  const counts: Record<string, number> = {};
  const grown: string[] = [];
  for (const name of pageTests()) {
    const copy = copyAssertions(Deno.readTextFileSync(new URL(name, TESTS)));
    if (copy.length) counts[name] = copy.length;
    if (copy.length > (NOT_CONVERTED[name] ?? 0)) {
      grown.push(`${name}: ${copy.map((c) => JSON.stringify(c)).join(", ")}`);
    }
  }
  assertEquals(grown, [], "assert on roles, labels, links or data attributes instead");
  assertEquals(counts, NOT_CONVERTED, "lower NOT_CONVERTED to what the files hold now");
});

Deno.test("isCopy tells prose from structure and data", () => {
  for (const copy of ["Set by an admin", "Nothing to sync", "only for master admins"]) {
    assertEquals(isCopy(copy), true, copy);
  }
  for (
    const not of [
      'aria-label="Add a domain"',
      "disk almost full",
      "/account/billing#plans",
      "KV reachable",
      "ada@example.com",
      "<h1>Overview</h1>",
    ]
  ) assertEquals(isCopy(not), false, not);
  assertEquals(isCopy("GitHub|Google|takes the account over"), true);
  assertEquals(isCopy("Tenant ${slug} is gone now"), true);
});

Deno.test("copyAssertions finds copy in every assertion form", () => {
  const src = `
    assertStringIncludes(page.text, "Custom domains need the pro plan");
    assert(!page.text.includes("Edit caps and limits"), "the editor sees no form");
    assert(!/GitHub|Google|takes the account over/.test(page.text));
    assertStringIncludes(
      page.text,
      'aria-label="Add a domain"',
    );
    assertStringIncludes(page.text, "data-verify-email", "the banner is there for everyone");`;
  assertEquals(copyAssertions(src), [
    "Custom domains need the pro plan",
    "Edit caps and limits",
    "GitHub|Google|takes the account over",
  ]);
});
