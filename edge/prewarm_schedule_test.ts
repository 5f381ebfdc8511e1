import { assertEquals } from "../tests/assert.ts";
import { copyPollDelay, probeDelay } from "./prewarm_schedule.ts";

Deno.test("prewarm schedule: a share of the wait, within its floor and ceiling", () => {
  assertEquals([0, 250, 500, 750, 1_500, 20_000, 60_000].map(probeDelay), [
    25,
    25,
    50,
    75,
    150,
    2_000,
    2_000,
  ]);
  assertEquals([0, 400, 1_000, 5_000, 60_000].map(copyPollDelay), [25, 25, 50, 250, 500]);
});

Deno.test("prewarm schedule: probes over a minute's lag stay few", () => {
  let t = 0;
  let probes = 0;
  while (t < 60_000) {
    t += probeDelay(t);
    probes++;
  }
  // 10 at the floor to 250 ms, about 10 % steps to 20 s, then 2 s apart.
  assertEquals(probes < 80, true, `${probes}`);
});
