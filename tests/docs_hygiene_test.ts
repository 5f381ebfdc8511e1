/**
 * The docs are a reference to the code as it is, not a lab notebook:
 * - every file path docs/architecture.md or docs/decisions.md names exists in the repo (a
 *   bare file name in a module-map row is looked up under that row's directory);
 * - every section of docs/decisions.md that the code or a doc refers to by name exists;
 * - no issue or session numbers (nor "this round", "last session", ...) in docs/, README.md,
 *   bench/*.md or the sources (*.ts, *.tsx, *.sql): what is true and why belongs there, and
 *   the history belongs to git.
 */
import { assertEquals } from "./assert.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const join = (a: string, b: string) => a.endsWith("/") ? a + b : `${a}/${b}`;
const SKIP_DIRS = new Set(["node_modules", ".git", ".data", "screenshots", "build"]);

function walk(dir: string, out: string[] = []): string[] {
  for (const e of Deno.readDirSync(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) {
      if (!SKIP_DIRS.has(e.name) && !e.name.startsWith(".")) walk(path, out);
    } else out.push(path.slice(ROOT.length));
  }
  return out;
}

const FILES = walk(ROOT);
const FILE_SET = new Set(FILES);
const exists = (p: string) =>
  FILE_SET.has(p.replace(/\/$/, "")) ||
  FILES.some((f) => f.startsWith(p.endsWith("/") ? p : p + "/"));
const read = (p: string) => Deno.readTextFileSync(join(ROOT, p));

/** Top-level folders a repo path in the docs starts with. */
const TOP = "(?:lib|edge|routes|tests|sdk|bench|components|islands|static|docs|cli)";
/** A repo path: a top-level folder and a file with an extension, or a folder ending in `/`. */
const REPO_PATH = new RegExp(
  `(?<![\\w./<-])(${TOP}/(?:[\\w.-]+/)*(?:[\\w-]+\\.(?:ts|tsx|sql|md|json|css)\\b|))`,
  "g",
);
/** A bare file name in backticks (a module-map row names files under its directory). */
const BARE_FILE = /`([\w-]+\.(?:ts|tsx|sql))`/g;
const ROOT_FILE = /`((?:main|app|cli)\.ts)`/g;

/** Paths that a build writes and git ignores; named in the docs on purpose. */
const GENERATED = [/^static\/build\//, /^tests\/e2e\/screenshots/];

/** Every path a doc names that is not in the repo (`<doc>: <path>`). */
function missingPaths(doc: string): string[] {
  const missing: string[] = [];
  let dir = "";
  for (const line of read(doc).split("\n")) {
    const cells = line.startsWith("|") ? line.split("|").slice(1) : null;
    const first = cells?.[0].match(/`([^`]+)`/)?.[1];
    if (first) dir = first.endsWith("/") ? first : first.replace(/[^/]*$/, "");
    else if (!cells) dir = "";
    for (const m of line.matchAll(REPO_PATH)) {
      const p = m[1];
      if (p.endsWith("/") && p.split("/").length < 3) continue; // a bare top-level folder
      if (GENERATED.some((g) => g.test(p))) continue;
      if (!exists(p) && !(dir && exists(dir + p))) missing.push(`${doc}: ${p}`);
    }
    for (const m of line.matchAll(ROOT_FILE)) if (!exists(m[1])) missing.push(`${doc}: ${m[1]}`);
    if (!dir) continue;
    for (const m of line.matchAll(BARE_FILE)) {
      const name = m[1];
      const found = FILES.some((f) => f.startsWith(dir) && f.endsWith("/" + name));
      if (!found && !exists(name)) missing.push(`${doc}: ${dir}…/${name}`);
    }
  }
  return missing;
}

Deno.test("docs/architecture.md and docs/decisions.md name only paths that exist", () => {
  const missing = ["docs/architecture.md", "docs/decisions.md"].flatMap(missingPaths);
  assertEquals(missing, []);
});

Deno.test("missingPaths reports a path that is not in the repo", () => {
  const tmp = "docs/.hygiene_probe.md";
  Deno.writeTextFileSync(
    join(ROOT, tmp),
    "See `lib/nowhere/gone.ts` and `edge/cache/keys.ts`.\n\n| `lib/kv/` | `nope.ts` |\n",
  );
  try {
    assertEquals(missingPaths(tmp), [`${tmp}: lib/nowhere/gone.ts`, `${tmp}: lib/kv/…/nope.ts`]);
  } finally {
    Deno.removeSync(join(ROOT, tmp));
  }
});

const SOURCE = /\.(ts|tsx|sql)$/;
const isSource = (f: string) => SOURCE.test(f) && !f.startsWith("sdk/dist/");
const isDoc = (f: string) =>
  (f.startsWith("docs/") && f.endsWith(".md")) || f === "README.md" ||
  /^bench\/[^/]+\.md$/.test(f);

/** A reference such as docs/decisions.md "HTTP caching", wrapped over comment lines or not. */
const SECTION_REF = /decisions\.md,?[\s*/]+"([^"]+)"/g;

Deno.test("every section of docs/decisions.md the code or docs refer to exists", () => {
  const headings = read("docs/decisions.md").split("\n")
    .filter((l) => l.startsWith("#")).map((l) => l.replace(/^#+\s*/, "").toLowerCase());
  const broken: string[] = [];
  for (const f of FILES.filter((f) => isSource(f) || isDoc(f))) {
    for (const m of read(f).matchAll(SECTION_REF)) {
      const name = m[1].replace(/\s*\n\s*(?:\*|\/\/)?\s*/g, " ").toLowerCase();
      if (!headings.some((h) => h.startsWith(name))) broken.push(`${f}: "${m[1]}"`);
    }
  }
  assertEquals(broken, []);
});

/** "issue 12", "session 5", "this round", "last session", ... (built so this file passes). */
const HISTORY = new RegExp(
  [
    "\\b(?:issue|session)s? #?\\d{1,2}\\b",
    "\\b(?:this|last|previous) round\\b",
    "(?<!for )\\b(?:this|last|previous) session(?:'s)?\\b",
  ].join("|"),
  "gi",
);

function historyMentions(files: string[]): string[] {
  const found: string[] = [];
  for (const f of files) {
    read(f).split("\n").forEach((line, i) => {
      for (const m of line.matchAll(HISTORY)) found.push(`${f}:${i + 1}: ${m[0]}`);
    });
  }
  return found;
}

Deno.test("no issue or session numbers in docs, README or bench notes", () => {
  assertEquals(historyMentions(FILES.filter(isDoc)), []);
});

Deno.test("no issue or session numbers in source files", () => {
  // this file's own examples of what the pattern catches are the exception
  const sources = FILES.filter((f) => isSource(f) && f !== "tests/docs_hygiene_test.ts");
  assertEquals(historyMentions(sources), []);
});

Deno.test("the history pattern catches what it is meant to", () => {
  const hits = (s: string) => [...s.matchAll(HISTORY)].map((m) => m[0]);
  assertEquals(hits("bytes are decimal (Issue 24), see session 5"), ["Issue 24", "session 5"]);
  assertEquals(hits("as this round showed; last session's figure"), [
    "this round",
    "last session's",
  ]);
  assertEquals(hits("Hide for this session; a session cookie; the issues list"), []);
});

/** Words as `wc -w` counts them: runs of non-whitespace. */
const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;
const DECISIONS_MAX_WORDS = 12_000;

Deno.test("docs/decisions.md stays a reference of at most 12,000 words", () => {
  const words = wordCount(read("docs/decisions.md"));
  if (words > DECISIONS_MAX_WORDS) {
    throw new Error(
      `docs/decisions.md has ${words} words (limit ${DECISIONS_MAX_WORDS}): fold new points ` +
        "into their topic section and say what is true now, not how it came about",
    );
  }
});

Deno.test("wordCount counts like wc -w", () => {
  assertEquals(wordCount(" a  b\n\tc-d `e` \n"), 4);
  assertEquals(wordCount(""), 0);
});
