import { assertEquals } from "../../tests/assert.ts";
import { labelEvery, niceMax, ticks } from "./scale.ts";
import { formatBytes } from "../../lib/dashboard/format.ts";

Deno.test("niceMax() rounds up to 1, 2, 2.5 or 5 times a power of ten", () => {
  assertEquals(niceMax(0), 1);
  assertEquals(niceMax(7), 10);
  assertEquals(niceMax(180), 200);
  assertEquals(niceMax(2100), 2500);
  assertEquals(niceMax(4.2e9), 5e9);
  assertEquals(niceMax(1000), 1000);
});

Deno.test("ticks() spaces values evenly from 0 to max", () => {
  assertEquals(ticks(200), [0, 50, 100, 150, 200]);
});

Deno.test("labelEvery() keeps at most seven labels, first and last among them", () => {
  const show = labelEvery(30);
  const shown = Array.from({ length: 30 }, (_, i) => i).filter(show);
  assertEquals(shown[0], 0);
  assertEquals(shown[shown.length - 1], 29);
  assertEquals(shown.length <= 7, true);
  assertEquals(Array.from({ length: 5 }, (_, i) => i).filter(labelEvery(5)).length, 5);
});

Deno.test("bytes are decimal: 5 GB of a plan reads 5.00 GB, axes tick 200 MB", () => {
  assertEquals(formatBytes(5_000_000_000), "5.00 GB");
  assertEquals(formatBytes(999), "999 B");
  assertEquals(formatBytes(1_500), "1.50 KB");
  assertEquals(formatBytes(130_000_000), "130.0 MB");
  assertEquals(niceMax(130_000_000), 200_000_000);
  assertEquals(niceMax(3_200_000_000), 5_000_000_000);
});
