/**
 * The Deno Deploy guide (docs/operations.md) gives steps Deploy accepts and that are safe: no
 * `DENO_` variable to enter (Deploy refuses the prefix and sets DENO_DEPLOY itself), the
 * environment in the Production context only (the Development context's pre-deploy migrate would
 * run a branch's migrations on production), and the snapshot age is no alert (a healthy idle
 * instance's reached 354 s).
 */
import { assert } from "./assert.ts";

const ops = await Deno.readTextFile(new URL("../docs/operations.md", import.meta.url));

/** The text of a `## ` section, up to the next one. */
function section(md: string, heading: string): string {
  const at = md.indexOf(`\n## ${heading}`);
  assert(at >= 0, heading);
  const end = md.indexOf("\n## ", at + 4);
  return md.slice(at, end === -1 ? undefined : end);
}

/** What is wrong with a Deploy guide (empty: nothing). */
function deployGuideProblems(md: string): string[] {
  const guide = section(md, "Deno Deploy + Supabase, step by step");
  const problems: string[] = [];
  // A variable the guide lists to enter is a `- \`NAME=` bullet.
  for (const m of guide.matchAll(/^\s*- `([A-Z_][A-Z0-9_]*)=/gm)) {
    if (/^(DENO_|OTEL_|LD_)/.test(m[1])) problems.push(`lists ${m[1]}, which Deploy refuses`);
  }
  if (/all contexts/i.test(guide)) problems.push("sets variables in all contexts");
  if (!/Production\*\* context only/.test(guide)) problems.push("no Production-only context");
  const metrics = section(md, "Metrics (Prometheus)");
  const age = metrics.match(/[^.]*cachely_edge_snapshot_age_seconds\)?`? \(a diagnostic[^)]*\)/);
  if (!age || !/not an alert/.test(age[0])) problems.push("snapshot age recommended as an alert");
  return problems;
}

Deno.test("the Deno Deploy guide: no DENO_ variable, Production context only, no snapshot-age alert", () => {
  const problems = deployGuideProblems(ops);
  assert(problems.length === 0, problems.join("; "));
});
