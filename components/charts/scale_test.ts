import { assertEquals } from "../../tests/assert.ts";
import { labelEvery, niceBytesMax, niceMax, ticks } from "./scale.ts";

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

Deno.test("niceBytesMax() is nice in the byte unit: 130 MB becomes 200 MB, not 190.7 MB", () => {
  const MB = 1024 * 1024;
  assertEquals(niceBytesMax(130 * MB), 200 * MB);
  assertEquals(niceBytesMax(900), 1000);
  assertEquals(niceBytesMax(3.2 * 1024 * MB), 5 * 1024 * MB);
  assertEquals(niceBytesMax(0), 1);
});
