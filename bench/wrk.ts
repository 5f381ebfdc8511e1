/** wrk driver: a Lua script prints one JSON summary line; paths may be unique per request. */
import type { Target, WrkOptions, WrkResult } from "./types.ts";
import { run } from "./proc.ts";

const ZIPF = (prefix: string, keys: number, s: number) => `
local cdf = {}
local total = 0
for i = 1, ${keys} do total = total + 1 / (i ^ ${s}); cdf[i] = total end
for i = 1, ${keys} do cdf[i] = cdf[i] / total end
math.randomseed(${Math.floor(Math.random() * 1e9)})
request = function()
  local u = math.random()
  local lo, hi = 1, ${keys}
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    if cdf[mid] < u then lo = mid + 1 else hi = mid end
  end
  return wrk.format(nil, "${prefix}" .. lo)
end`;

const SCRIPT = (uniquePrefix: string | null, zipf: string, uniqueKeys: number) => `
local counter = 0
${zipf}
${
  uniquePrefix === null ? "" : `
request = function()
  if counter < ${uniqueKeys} then counter = counter + 1 end
  return wrk.format(nil, "${uniquePrefix}" .. counter)
end`
}
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '\\n{"requests":%d,"duration_us":%d,"socket_errors":%d,"status_errors":%d,"p50_us":%d,"p99_us":%d,"mean_us":%.1f}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(99), latency.mean))
end
`;

export async function runWrk(
  scriptDir: string,
  target: Target,
  originPath: string,
  opts: WrkOptions & { connections: number; durationSec: number },
): Promise<WrkResult> {
  const unique = opts.uniquePrefix !== undefined
    ? target.path(opts.uniquePrefix) + `${crypto.randomUUID().slice(0, 8)}-`
    : null;
  const script = `${scriptDir}/wrk-${crypto.randomUUID().slice(0, 8)}.lua`;
  const zipf = opts.zipf
    ? ZIPF(target.path(opts.zipf.prefix), opts.zipf.keys, opts.zipf.s ?? 1)
    : "";
  await Deno.writeTextFile(script, SCRIPT(unique, zipf, opts.uniqueKeys ?? 2 ** 31));
  const args = [
    "-t1",
    `-c${opts.connections}`,
    `-d${opts.durationSec}s`,
    "--timeout",
    "10s",
    "-s",
    script,
  ];
  if (target.host) args.push("-H", `Host: ${target.host}`);
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push("-H", `${k}: ${v}`);
  args.push(`${target.base}${target.path(originPath)}`);
  const out = await run("wrk", args);
  await Deno.remove(script).catch(() => {});
  const line = out.split("\n").reverse().find((l) => l.startsWith('{"requests"'));
  if (!line) throw new Error(`wrk printed no summary:\n${out}`);
  const j = JSON.parse(line);
  const durationSec = j.duration_us / 1e6;
  return {
    requests: j.requests,
    durationSec,
    rps: j.requests / durationSec,
    p50Ms: j.p50_us / 1000,
    p99Ms: j.p99_us / 1000,
    meanMs: j.mean_us / 1000,
    errors: j.socket_errors + j.status_errors,
  };
}
