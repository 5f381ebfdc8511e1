/**
 * The table bench/compressed_hits.ts prints: per runtime, each answer's req/s in every round and
 * their median, the median against the runtime's identity hits and against nginx's gzip, p99 per
 * round, CPU per hit and bytes per answer.
 */

/** One answer measured over the rounds (a Cachely coding, or nginx identity/gzip). */
export type CompressedRow = {
  /** `cachely identity`, `cachely br`, `nginx gzip` … */
  answer: string;
  rps: number[];
  p99Ms: number[];
  /** Server CPU (user + system) over all rounds divided by the requests answered. */
  cpuUsPerHit: number;
  bytes: number;
};

export type CompressedRun = { runtime: string; rows: CompressedRow[] };

export const median = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const int = (n: number) => Math.round(n).toLocaleString("en-US");

/** The markdown table of `runs`; the ratios are of medians, within a runtime's run. */
export function compressedTable(runs: CompressedRun[]): string {
  const lines = [
    "| runtime | answer | req/s per round | median | × identity | × nginx gzip | p99 per round, ms | CPU per hit, µs | bytes |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  for (const run of runs) {
    const of = (name: string) => run.rows.find((r) => r.answer === name);
    const identity = median(of("cachely identity")?.rps ?? [NaN]);
    const nginxGzip = median(of("nginx gzip")?.rps ?? [NaN]);
    for (const r of run.rows) {
      const m = median(r.rps);
      lines.push(
        `| ${run.runtime} | ${r.answer} | ${r.rps.map(int).join(", ")} | ${int(m)} | ${
          (m / identity).toFixed(2)
        } | ${(m / nginxGzip).toFixed(2)} | ${r.p99Ms.map((x) => x.toFixed(1)).join(", ")} | ${
          r.cpuUsPerHit.toFixed(1)
        } | ${int(r.bytes)} |`,
      );
    }
  }
  return lines.join("\n");
}

/** A dictionary delta's size and its share of the same body's gzip. */
export function deltaLine(what: string, dcz: number, gzip: number): string {
  return `${what}: dcz ${int(dcz)} bytes against ${int(gzip)} of gzip (${
    (dcz / gzip * 100).toFixed(2)
  } %)`;
}
