/**
 * `Services` (lib/services.ts) is built complete, and so is the instance's running parts
 * (lib/instance.ts): no field is optional or may be undefined, so no consumer can skip a
 * behaviour because a field was never set (docs/architecture.md "Services and the instance").
 * Each type is parsed with the TypeScript compiler API and must be one plain object type: an
 * intersection, `Partial<…>` or mapped type would hide optional fields from this check.
 */
import ts from "typescript";
import { assert, assertEquals } from "./assert.ts";

const ROOT = new URL("../", import.meta.url);

/** `name`'s members that are optional or admit undefined, or a message for an unfit shape. */
async function optionalFields(path: string, name: string): Promise<string[]> {
  const text = await Deno.readTextFile(new URL(path, ROOT));
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const decl = file.statements.find((s): s is ts.TypeAliasDeclaration =>
    ts.isTypeAliasDeclaration(s) && s.name.text === name
  );
  assert(decl, `${path} declares no type ${name}`);
  if (!ts.isTypeLiteralNode(decl.type)) return [`${name} is not one object type literal`];
  const out: string[] = [];
  for (const m of decl.type.members) {
    const label = m.name ? m.name.getText(file) : m.getText(file);
    if (!ts.isPropertySignature(m) && !ts.isMethodSignature(m)) {
      out.push(`${label} (index or call signature)`);
    } else if (m.questionToken) out.push(`${label}?`);
    else if (m.type && admitsUndefined(m.type)) out.push(`${label}: … | undefined`);
  }
  return out;
}

function admitsUndefined(t: ts.TypeNode): boolean {
  if (t.kind === ts.SyntaxKind.UndefinedKeyword || t.kind === ts.SyntaxKind.VoidKeyword) {
    return true;
  }
  if (ts.isParenthesizedTypeNode(t)) return admitsUndefined(t.type);
  return ts.isUnionTypeNode(t) && t.types.some(admitsUndefined);
}

Deno.test("Services has no optional field", async () => {
  assertEquals(await optionalFields("lib/services.ts", "Services"), []);
});

Deno.test("the instance's running parts have no optional field", async () => {
  assertEquals(await optionalFields("lib/instance.ts", "Instance"), []);
});

Deno.test("the check sees an optional field and one that admits undefined", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/t.ts`;
    await Deno.writeTextFile(
      file,
      "export type S = { a: number; b?: string; c: (() => void) | undefined };\n",
    );
    assertEquals(await optionalFields(`file://${file}`, "S"), ["b?", "c: … | undefined"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
