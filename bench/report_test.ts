import { assertEquals } from "../tests/assert.ts";
import { withKeptSections } from "./report.ts";

Deno.test("deno task bench keeps the sections standalone benches wrote, replaces its own", () => {
  const previous = "# Benchmark results\n\nold run\n\n## Cache hits\n\nold hits\n\n" +
    "## Fault soak (bench/soak.ts)\n\n- 0 lost\n";
  const generated = "# Benchmark results\n\nnew run\n\n## Cache hits\n\nnew hits\n";
  assertEquals(
    withKeptSections(previous, generated),
    "# Benchmark results\n\nnew run\n\n## Cache hits\n\nnew hits\n\n" +
      "## Fault soak (bench/soak.ts)\n\n- 0 lost\n",
  );
  assertEquals(withKeptSections("", generated), generated);
});
