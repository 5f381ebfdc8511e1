/**
 * Who may import the projector (lib/edge_config/projector.ts, the module that writes edge
 * snapshots to KV), as docs/architecture.md states it: code that changes a tenant goes through
 * lib/edge_config/changes.ts (changeTenant / markTenantChanged + projectTenant), which reaches
 * the projector through Services.edgeProjection. The only importers are the composition root,
 * the projector's own loop and reconcile pass, the two repair paths an admin asks for, and AI
 * regenerate, which reads the snapshot as the edge would get it (buildSnapshot, no KV write).
 */
import { assertEquals } from "./assert.ts";

const ROOT = new URL("../", import.meta.url);

const ALLOWED: Record<string, string[]> = {
  "lib/bootstrap.ts": ["projectSlug"],
  "lib/edge_config/loop.ts": ["projectSlug", "slugsBehind"],
  "lib/edge_config/reconcile.ts": ["projectSlug"],
  "lib/cache/edge_config.ts": ["repairTenantSnapshot"], // POST …/edge-config
  "lib/admin/platform/kv_resync.ts": ["projectSlug"], // the master admin's KV resync
  "lib/ai/regenerate.ts": ["buildSnapshot"], // read only
};

async function* sources(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(new URL(dir, ROOT))) {
    const path = `${dir}${e.name}`;
    if (e.isDirectory) yield* sources(`${path}/`);
    else if (/\.tsx?$/.test(e.name) && !/_test\.tsx?$/.test(e.name)) yield path;
  }
}

Deno.test("only the composition root, the projector's loops, repairs and regenerate import the projector", async () => {
  const found: Record<string, string[]> = {};
  for (const dir of ["lib/", "routes/", "edge/", "components/", "islands/", "cli/"]) {
    for await (const path of sources(dir)) {
      const text = await Deno.readTextFile(new URL(path, ROOT));
      const imports = text.matchAll(
        /import\s*(type\s*)?\{([^}]*)\}\s*from\s*"[^"]*\/projector\.ts"|import\(\s*"[^"]*\/projector\.ts"\s*\)/g,
      );
      for (const m of imports) {
        if (m[1]) continue; // types vanish at run time
        const names = m[2] === undefined
          ? ["import()"]
          : m[2].split(",").map((n) => n.trim()).filter((n) => n && !n.startsWith("type "));
        if (names.length) found[path] = [...(found[path] ?? []), ...names].sort();
      }
    }
  }
  assertEquals(
    Object.fromEntries(Object.entries(found).sort(([a], [b]) => a.localeCompare(b))),
    Object.fromEntries(Object.entries(ALLOWED).sort(([a], [b]) => a.localeCompare(b))),
  );
});
