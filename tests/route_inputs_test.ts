/**
 * A route's declaration is its handler's input (lib/http/route.ts, lib/http/mount.ts): the mount
 * checks the declared access, parses the declared body and query and hands the handler
 * `{ body, query, tenant, role, auth }`. A handler that checks its role or parses its input again
 * says everything twice, and the copies drift (OpenAPI showing a body the handler doesn't parse).
 */
import { assertEquals } from "./assert.ts";

const API = new URL("../routes/api/", import.meta.url);
const RESTATED = /\b(requireTenant|parseJsonBody|parseQuery|requireMasterAdmin)\(/g;

/**
 * Files still written the old way, converted as the issues that change them land. This list
 * only shrinks: a file leaves it once converted, and no new file may join it.
 */
const NOT_YET_CONVERTED = new Set([
  "analytics.ts",
  "billing.ts",
  "cache_control.ts",
  "usage.ts",
]);

Deno.test("handlers under routes/api take their input from the declaration", async () => {
  const offenders: string[] = [];
  const converted: string[] = [];
  for await (const e of Deno.readDir(API)) {
    if (!e.isFile || !e.name.endsWith(".ts")) continue;
    const text = await Deno.readTextFile(new URL(e.name, API));
    const calls = [...text.matchAll(RESTATED)].map((m) => m[1]);
    if (calls.length === 0 && NOT_YET_CONVERTED.has(e.name)) converted.push(e.name);
    if (calls.length > 0 && !NOT_YET_CONVERTED.has(e.name)) {
      offenders.push(`${e.name}: ${[...new Set(calls)].join(", ")}`);
    }
  }
  assertEquals(offenders, [], "use the handler's input instead");
  assertEquals(converted, [], "converted: remove from NOT_YET_CONVERTED");
});
