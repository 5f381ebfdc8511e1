/**
 * A route's declaration is its handler's input (lib/http/route.ts, lib/http/mount.ts): the mount
 * checks the declared access, parses the declared body and query and hands the handler
 * `{ body, query, tenant, role, auth }`. A handler that checks its role or parses its input again
 * says everything twice, and the copies drift (OpenAPI showing a body the handler doesn't parse).
 */
import { assertEquals } from "./assert.ts";

const API = new URL("../routes/api/", import.meta.url);
const RESTATED = /\b(requireTenant|requireAuth|parseJsonBody|parseQuery|requireMasterAdmin)\(/g;

Deno.test("handlers under routes/api take their input from the declaration", async () => {
  const offenders: string[] = [];
  for await (const e of Deno.readDir(API)) {
    if (!e.isFile || !e.name.endsWith(".ts")) continue;
    const text = await Deno.readTextFile(new URL(e.name, API));
    const calls = [...text.matchAll(RESTATED)].map((m) => m[1]);
    if (calls.length > 0) offenders.push(`${e.name}: ${[...new Set(calls)].join(", ")}`);
  }
  assertEquals(offenders, [], "use the handler's input instead");
});
