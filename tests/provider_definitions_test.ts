/**
 * A provider kind is one module (sdk/providers/<kind>.ts, listed in sdk/providers/list.ts):
 * no other source names a kind in code. The TypeScript parser reads every non-test source
 * file outside sdk/providers/ and reports each string literal that is a kind's name
 * (`"storyblok"`, `case "imgix":`, a literal type) and each property named after one (a
 * per-kind table such as `{ sanity: …, prismic: … }`). Comments and prose inside longer
 * strings do not count. Code that needs a kind's knowledge reads it from the definition
 * (`definitionOf(kind)`, a flag of the definition, or the definition's `kind`).
 */
import ts from "typescript";
import { assertEquals } from "./assert.ts";
import { PROVIDER_KINDS } from "../sdk/providers.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const SOURCE_DIRS = ["lib", "edge", "routes", "components", "islands", "sdk", "cli", "scripts"];
const TOP_FILES = ["main.ts", "app.ts", "cli.ts"];

/**
 * Files that name a kind for another reason (each says why). bench/ and tests/ are not
 * scanned: their tenants are test data (`cms: "generic"`), not knowledge of a kind.
 */
const ALLOWED: Record<string, string> = {
  // Website platforms detected from a page (Shopify storefronts; "generic" for any other
  // site): a different list that shares two names with the provider kinds.
  "lib/checks/platform.ts": "website platforms, not provider kinds",
  // npm subpath exports and peer dependencies named after the CMS client packages
  // (`@cachely/sdk/contentful`, the `contentful` package).
  "sdk/build.ts": "npm package names",
};

function sources(dir: string, out: string[] = []): string[] {
  for (const e of Deno.readDirSync(ROOT + dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) {
      if (path !== "sdk/dist" && path !== "sdk/providers") sources(path, out);
    } else if (/\.tsx?$/.test(e.name) && !/_test\.tsx?$/.test(e.name)) out.push(path);
  }
  return out;
}

/** Each `path:line: text` where a kind's name is code. */
export function kindLiterals(
  files: string[],
  kinds: readonly string[],
  root = ROOT,
): string[] {
  const names = new Set(kinds);
  const hits: string[] = [];
  for (const file of files) {
    const text = Deno.readTextFileSync(root + file);
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const hit = (node: ts.Node, name: string) => {
      const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
      hits.push(`${file}:${line}: ${name}`);
    };
    const visit = (node: ts.Node) => {
      if (
        (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
        names.has(node.text)
      ) {
        hit(node, JSON.stringify(node.text));
      } else if (
        (ts.isPropertyAssignment(node) || ts.isPropertySignature(node)) &&
        ts.isIdentifier(node.name) && names.has(node.name.text)
      ) {
        hit(node.name, `${node.name.text}:`);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return hits;
}

Deno.test("no source outside sdk/providers/ names a provider kind in code", () => {
  const files = [...SOURCE_DIRS.flatMap((d) => sources(d)), ...TOP_FILES];
  const hits = kindLiterals(files.filter((f) => !(f in ALLOWED)), PROVIDER_KINDS);
  assertEquals(hits, [], "read the kind's knowledge from its definition (sdk/providers/)");
});

Deno.test("the scan finds literals, literal types and per-kind tables; not comments or prose", () => {
  const dir = Deno.makeTempDirSync();
  try {
    Deno.writeTextFileSync(
      `${dir}/a.ts`,
      `// "sanity" in a comment\nconst t = { sanity: 1 };\nif (k === "imgix") f("sanity rules");\n` +
        `type K = "generic" | string;\nconst s = \`imgix\`;\n`,
    );
    assertEquals(kindLiterals(["a.ts"], PROVIDER_KINDS, `${dir}/`), [
      "a.ts:2: sanity:",
      'a.ts:3: "imgix"',
      'a.ts:4: "generic"',
      'a.ts:5: "imgix"',
    ]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
