import { assertEquals } from "../../tests/assert.ts";
import { openFollowedKv } from "./follow_file.ts";
import { silentLogger } from "../log.ts";

Deno.test("a KV file replaced under a running instance is reopened, not kept", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/kv.sqlite3`;
  let reopened = 0;
  const followed = await openFollowedKv(path, {
    log: silentLogger,
    onReopen: () => reopened++,
    checkMs: 50,
  });
  const kv = followed.kv;
  try {
    await kv.set(["k"], "old file");
    // the operator deletes the file; another instance starts and creates a new one
    for (const f of ["", "-wal", "-shm"]) await Deno.remove(path + f).catch(() => {});
    const other = await Deno.openKv(path);
    await other.set(["k"], "new file");
    const deadline = Date.now() + 3_000;
    while (reopened === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assertEquals(reopened, 1);
    assertEquals((await kv.get(["k"])).value, "new file", "reads the file the others use");
    await kv.set(["k2"], "written after the switch");
    assertEquals((await other.get(["k2"])).value, "written after the switch");
    other.close();
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
