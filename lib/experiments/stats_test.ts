import { assert, assertEquals } from "../../tests/assert.ts";
import { absoluteUplift, chiSquaredPValue, gammaQ, lnGamma, sampleRatioMismatch } from "./stats.ts";

const close = (a: number, b: number, tol: number, what = "") =>
  assert(Math.abs(a - b) <= tol, `${what} ${a} ≉ ${b} (±${tol})`);

// ---- happy ----

Deno.test("lnGamma() matches factorials and Γ(1/2) = √π", () => {
  close(lnGamma(1), 0, 1e-13);
  close(lnGamma(5), Math.log(24), 1e-12);
  close(lnGamma(0.5), Math.log(Math.sqrt(Math.PI)), 1e-12);
  close(lnGamma(10.5), 13.940625219403763, 1e-10);
});

Deno.test("chiSquaredPValue() agrees with closed forms for df 1, 2 and 3", () => {
  // df = 2: Q = e^{-x/2}. df = 4: Q = e^{-x/2}(1 + x/2).
  for (const x of [0.1, 1, 4.7619, 10, 30]) {
    close(chiSquaredPValue(x, 2), Math.exp(-x / 2), 1e-12, `df2 x=${x}`);
    close(chiSquaredPValue(x, 4), Math.exp(-x / 2) * (1 + x / 2), 1e-12, `df4 x=${x}`);
  }
  // df = 1: textbook critical values.
  close(chiSquaredPValue(3.841458820694124, 1), 0.05, 1e-10, "df1 95%");
  close(chiSquaredPValue(10.827566170662733, 1), 0.001, 1e-10, "df1 99.9%");
  close(chiSquaredPValue(7.814727903251178, 3), 0.05, 1e-10, "df3 95%");
  assertEquals(chiSquaredPValue(0, 1), 1);
  close(gammaQ(3, 0.5), Math.exp(-0.5) * (1 + 0.5 + 0.125), 1e-14, "Q(3, .5) series branch");
});

Deno.test("sampleRatioMismatch() computes χ² and p by hand for a 50/50 split", () => {
  // Observed 1000 vs 1100 against 1:1 → E = 1050 each, χ² = 2·50²/1050 = 4.7619…,
  // p = erfc(√(χ²/2)) = erfc(1.543033) = 0.0290963… (df 1).
  const r = sampleRatioMismatch([1000, 1100], [1, 1])!;
  close(r.chiSquared, 5000 / 1050, 1e-12, "chi");
  assertEquals(r.degreesOfFreedom, 1);
  close(r.pValue, 0.0290963, 1e-6, "p");
  assertEquals(r.flagged, false);
});

Deno.test("sampleRatioMismatch() flags a 3-arm split far from 1:1:2", () => {
  // Expected 250/250/500 of 1000; observed 300/300/400:
  // χ² = 2500/250 + 2500/250 + 10000/500 = 40, df 2, p = e^{-20} = 2.06e-9.
  const r = sampleRatioMismatch([300, 300, 400], [1, 1, 2])!;
  close(r.chiSquared, 40, 1e-12);
  close(r.pValue, Math.exp(-20), 1e-15);
  assertEquals(r.flagged, true);
});

Deno.test("sampleRatioMismatch() is null with one variant or no exposures", () => {
  assertEquals(sampleRatioMismatch([10], [1]), null);
  assertEquals(sampleRatioMismatch([0, 0], [1, 1]), null);
});

Deno.test("absoluteUplift() gives the Wald interval computed by hand", () => {
  // Control 100/1000 = 10%, variant 150/1000 = 15%: diff = 5 points,
  // se = √(.1·.9/1000 + .15·.85/1000) = √0.0002175 = 0.0147479,
  // CI = 5 ± 1.959964·1.47479 = [2.10947, 7.89053].
  const u = absoluteUplift({ exposures: 1000, events: 100 }, { exposures: 1000, events: 150 })!;
  close(u.absolute, 5, 1e-12);
  close(u.ciLower, 2.109467, 1e-5);
  close(u.ciUpper, 7.890533, 1e-5);
  assertEquals(u.confidence, 0.95);
});

Deno.test("absoluteUplift() is null without exposures and stays finite above 100%", () => {
  assertEquals(absoluteUplift({ exposures: 0, events: 0 }, { exposures: 5, events: 1 }), null);
  const u = absoluteUplift({ exposures: 2, events: 5 }, { exposures: 2, events: 1 })!;
  close(u.absolute, -200, 1e-12);
  assert(Number.isFinite(u.ciLower) && Number.isFinite(u.ciUpper));
});
