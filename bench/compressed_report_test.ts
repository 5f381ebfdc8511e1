import { assertEquals } from "../tests/assert.ts";
import { compressedTable, deltaLine, median } from "./compressed_report.ts";

Deno.test("the compressed-hits table: medians, ratios to identity and to nginx gzip", () => {
  const row = (answer: string, rps: number[], bytes: number) => ({
    answer,
    rps,
    p99Ms: rps.map((r) => 1000 / r),
    cpuUsPerHit: 1e6 / rps[0],
    bytes,
  });
  const table = compressedTable([{
    runtime: "2.9.6",
    rows: [
      row("cachely identity", [20_000, 10_000, 30_000], 41_792),
      row("cachely br", [33_000, 30_000], 7_455),
      row("nginx gzip", [5_000, 6_000, 4_000], 12_345),
    ],
  }]);
  assertEquals(table.split("\n").slice(2), [
    "| 2.9.6 | cachely identity | 20,000, 10,000, 30,000 | 20,000 | 1.00 | 4.00 | 0.1, 0.1, 0.0 | 50.0 | 41,792 |",
    "| 2.9.6 | cachely br | 33,000, 30,000 | 33,000 | 1.65 | 6.60 | 0.0, 0.0 | 30.3 | 7,455 |",
    "| 2.9.6 | nginx gzip | 5,000, 6,000, 4,000 | 5,000 | 0.25 | 1.00 | 0.2, 0.2, 0.3 | 200.0 | 12,345 |",
  ]);
  assertEquals(median([3, 1, 2]), 2);
});

Deno.test("a delta line gives bytes and the share of gzip", () => {
  assertEquals(
    deltaLine("one-field edit", 74, 7_714),
    "one-field edit: dcz 74 bytes against 7,714 of gzip (0.96 %)",
  );
});
