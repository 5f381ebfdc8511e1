/**
 * RFC 9111 conformance, measured from outside: the public HTTP caching suite
 * (http-tests/cache-tests) run against Cachely's edge in origin mode with tenant defaults, and
 * against nginx and Squid when installed, each in front of the same scripted origin.
 *
 * Run: CACHE_TESTS_DIR=/path/to/cache-tests deno run -A bench/conformance.ts
 *   [CACHES=cachely,nginx,squid] [VERBOSE=1] [ONLY=test-id,…] [PORT_BASE=18700]
 *
 * Prints per cache: passed, failed (required tests), optional failed, checks answered yes/no,
 * setup and dependency failures, and unsafe: required tests failed because a stored answer
 * was served where it must not be (the answer carried an earlier origin answer: stale, or
 * stored against no-store / private / no-cache). The suite's code is not part of this repository.
 */
import { type Outcome, runSuiteTest, type SuiteTest } from "./conformance_client.ts";
import { startSuiteOrigin } from "./conformance_origin.ts";
import {
  type CacheUnderTest,
  startCachelyEdge,
  startNginxCache,
  startSquidCache,
} from "./conformance_caches.ts";

type Suite = { id: string; tests: SuiteTest[] };
type Verdict = "pass" | "fail" | "optional_fail" | "yes" | "no" | "setup_fail" | "dependency_fail";

const CONCURRENCY = 24;

/** The suite's tests for a shared cache (browser-only ones left out). */
async function loadSuite(dir: string): Promise<SuiteTest[]> {
  const url = new URL(`file://${dir.replace(/\/$/, "")}/tests/index.mjs`);
  const suites = (await import(url.href)).default as Suite[];
  return suites.flatMap((s) => s.tests).filter((t) => t.browser_only !== true);
}

function kindOf(t: SuiteTest): "required" | "optimal" | "check" {
  if (t.kind === "check" || t.kind === "optimal") return t.kind;
  return t.required === false ? "optimal" : "required";
}

/** A test's verdict as the suite's result table shows it (dependencies honoured). */
function verdictOf(
  byId: Map<string, SuiteTest>,
  results: Map<string, Outcome>,
  id: string,
): Verdict {
  const t = byId.get(id)!;
  const r = results.get(id)!;
  for (const dep of t.depends_on ?? []) {
    if (!byId.has(dep) || !results.has(dep)) continue;
    const v = verdictOf(byId, results, dep);
    if (v !== "pass" && v !== "yes") return "dependency_fail";
  }
  if (r !== true && r[0] === "Setup") return "setup_fail";
  const kind = kindOf(t);
  if (kind === "check") return r === true ? "yes" : "no";
  if (r === true) return "pass";
  return kind === "optimal" ? "optional_fail" : "fail";
}

async function runAll(tests: SuiteTest[], cache: CacheUnderTest, origin: string) {
  const results = new Map<string, Outcome>();
  let next = 0;
  const worker = async () => {
    while (next < tests.length) {
      const t = tests[next++];
      results.set(t.id, await runSuiteTest(t, cache.url, origin));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return results;
}

/** Long: runs the suite against each cache and prints the score lines. */
async function main() {
  const dir = Deno.env.get("CACHE_TESTS_DIR");
  if (!dir) throw new Error("CACHE_TESTS_DIR (a checkout of http-tests/cache-tests) is required");
  const only = Deno.env.get("ONLY")?.split(",");
  const all = await loadSuite(dir);
  const byId = new Map(all.map((t) => [t.id, t]));
  const tests = only ? all.filter((t) => only.includes(t.id)) : all;
  const base = Number(Deno.env.get("PORT_BASE") ?? 18700);
  const wanted = (Deno.env.get("CACHES") ?? "cachely,nginx,squid").split(",");
  const origin = startSuiteOrigin(base);
  const starters: Record<string, () => Promise<CacheUnderTest | null>> = {
    cachely: () => startCachelyEdge(base + 1, origin.url),
    nginx: () => startNginxCache(base + 2, base),
    squid: () => startSquidCache(base + 3, base),
  };
  const verbose = Deno.env.get("VERBOSE") === "1";
  for (const name of wanted) {
    const cache = await starters[name]?.();
    if (!cache) {
      console.log(`${name}: not installed, skipped`);
      continue;
    }
    try {
      const results = await runAll(tests, cache, origin.url);
      const counts: Record<Verdict | "unsafe", number> = {
        pass: 0,
        fail: 0,
        optional_fail: 0,
        yes: 0,
        no: 0,
        setup_fail: 0,
        dependency_fail: 0,
        unsafe: 0,
      };
      for (const t of tests) {
        const v = verdictOf(byId, results, t.id);
        counts[v]++;
        const r = results.get(t.id)!;
        // The answer itself carried an earlier origin answer: a stored one served against the rules.
        const unsafe = v === "fail" && r !== true && / comes from cache$/.test(r[1]);
        if (unsafe) counts.unsafe++;
        if (verbose && v !== "pass" && v !== "yes") {
          console.log(
            `  ${name} ${v}${unsafe ? " UNSAFE" : ""} ${t.id}: ${r === true ? "" : r[1]}`,
          );
        }
      }
      console.log(
        `${name}: ${counts.pass} passed, ${counts.fail} failed, ${counts.optional_fail} optional failed, ` +
          `${counts.unsafe} unsafe; checks ${counts.yes} yes / ${counts.no} no; ` +
          `${counts.setup_fail} setup, ${counts.dependency_fail} dependency failures (${tests.length} tests)`,
      );
    } finally {
      await cache.stop();
    }
  }
  await origin.close();
}

if (import.meta.main) await main();
