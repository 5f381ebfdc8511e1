import { assert, assertEquals } from "../../tests/assert.ts";
import {
  bucketLowerMs,
  emptySketch,
  mergeSketch,
  quantiles,
  SKETCH_BUCKETS,
  sketchBucket,
  sketchQuantile,
  trimSketch,
} from "./latency_sketch.ts";

Deno.test("buckets: [0, 1) ms, four per power of two, the last open", () => {
  assertEquals(SKETCH_BUCKETS, 66);
  assertEquals([0, 0.99, -3, NaN].map(sketchBucket), [0, 0, 0, 0]);
  assertEquals([1, 1.24, 1.25, 1.5, 1.75, 2, 3, 4].map(sketchBucket), [1, 1, 2, 3, 4, 5, 7, 9]);
  assertEquals([65_535.9, 65_536, 1e9].map(sketchBucket), [64, 65, 65]);
  // every bucket's lower bound falls in it, and the value just below it in the one before
  for (let i = 1; i < SKETCH_BUCKETS; i++) {
    assertEquals(sketchBucket(bucketLowerMs(i)), i);
    assertEquals(sketchBucket(bucketLowerMs(i) - 1e-9), i - 1);
  }
  assertEquals([bucketLowerMs(17), bucketLowerMs(18), bucketLowerMs(21)], [16, 20, 32]);
});

Deno.test("quantiles of known durations lie in the true value's bucket", () => {
  const values: number[] = [];
  for (let i = 0; i < 900; i++) values.push(3 + (i % 10) * 0.1); // 3.0 … 3.9 ms
  for (let i = 0; i < 90; i++) values.push(120); // p95, p99 fall among these
  for (let i = 0; i < 10; i++) values.push(2_000);
  const s = emptySketch();
  for (const v of values) s[sketchBucket(v)]++;
  const sorted = [...values].sort((a, b) => a - b);
  for (const q of [0.5, 0.95, 0.99, 0.999]) {
    const truth = sorted[Math.ceil(q * values.length) - 1];
    const got = sketchQuantile(s, q)!;
    assert(
      Math.abs(sketchBucket(got) - sketchBucket(truth)) <= 1 &&
        got >= bucketLowerMs(sketchBucket(truth)) &&
        got <= bucketLowerMs(sketchBucket(truth) + 1),
      `q=${q}: ${got} vs ${truth}`,
    );
  }
  assertEquals(quantiles(emptySketch()), null);
  assertEquals(quantiles([]), null);
});

Deno.test("sketches merge by addition: two halves read like the whole", () => {
  const a = emptySketch();
  const b = emptySketch();
  const whole = emptySketch();
  for (let i = 0; i < 500; i++) {
    const v = (i * 37) % 700;
    (i % 2 ? a : b)[sketchBucket(v)]++;
    whole[sketchBucket(v)]++;
  }
  // trimmed (as flushed and stored) and untrimmed alike
  const merged = mergeSketch(trimSketch(a), trimSketch(b));
  assertEquals(quantiles(merged), quantiles(whole));
  assertEquals(trimSketch([0, 2, 0, 0]), [0, 2]);
  assertEquals(mergeSketch([1], [0, 0, 3]), [1, 0, 3]);
});
