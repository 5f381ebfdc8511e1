import { assertEquals } from "../../tests/assert.ts";
import { tar } from "./tar.ts";

Deno.test("tar() writes an archive the system tar lists and extracts byte for byte", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cachely-tar-" });
  try {
    const big = new Uint8Array(1500).map((_, i) => i % 251);
    const archive = tar([
      { path: "package/package.json", data: new TextEncoder().encode('{"a":1}\n'), mode: 0o644 },
      { path: "package/bin/run.mjs", data: big, mode: 0o755 },
    ]);
    assertEquals(archive.length % 512, 0);
    await Deno.writeFile(`${dir}/a.tar`, archive);
    const out = await new Deno.Command("tar", { args: ["-xf", "a.tar"], cwd: dir }).output();
    assertEquals(out.success, true, new TextDecoder().decode(out.stderr));
    assertEquals(await Deno.readTextFile(`${dir}/package/package.json`), '{"a":1}\n');
    assertEquals(await Deno.readFile(`${dir}/package/bin/run.mjs`), big);
    assertEquals((await Deno.stat(`${dir}/package/bin/run.mjs`)).mode! & 0o777, 0o755);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
