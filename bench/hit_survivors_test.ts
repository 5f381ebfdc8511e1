import { assert, assertEquals } from "../tests/assert.ts";
import { bySite, scavenges } from "./hit_survivors.ts";

/** V8's own --trace-gc-nvp output of a program that keeps 100,000 objects at a time alive. */
async function tracedAllocation(): Promise<string> {
  const src =
    "const a = []; for (let i = 0; i < 2e6; i++) { a.push({ i }); if (a.length > 1e5) a.length = 0; }";
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--v8-flags=--trace-gc-nvp", src],
    stdout: "piped",
    stderr: "piped",
    clearEnv: true,
  }).output();
  assert(out.success, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
}

Deno.test("scavenges: this runtime's --trace-gc-nvp lines read as survived and promoted bytes", async () => {
  const lines = scavenges(await tracedAllocation(), 0);
  assert(lines.length >= 3, `scavenges found: ${lines.length}`);
  for (const l of lines) {
    const m = l.match(
      /^\d+ ms: new space (\d+) MiB, survived (\d+) KiB, promoted (\d+) KiB, objects (\d+) MiB$/,
    );
    assert(m, l);
    assert(Number(m[1]) >= 1, `a new space of at least 1 MiB: ${l}`);
  }
  // Up to 100,000 objects are live at each scavenge: some of them survive it.
  assert(lines.some((l) => !/survived 0 KiB/.test(l)), lines.join("\n"));
});

Deno.test("scavenges: only young-generation collections at or after the given time", () => {
  const trace = [
    '[1:0x1:0]       10 ms: GC: {"pause":1,"gc":"s","new_space_capacity":8388608,"new_space_survived":2048,"promoted":1024,"end_object_size":3145728}',
    '[1:0x1:0]       20 ms: GC: {"pause":9,"gc":"ms","new_space_capacity":8388608,"promoted":0}',
    '[1:0x1:0]       30 ms: GC: {"pause":1,"gc":"s","new_space_capacity":16777216,"new_space_survived":0,"promoted":5120,"end_object_size":4194304}',
  ].join("\n");
  assertEquals(scavenges(trace, 15), [
    "30 ms: new space 16 MiB, survived 0 KiB, promoted 5 KiB, objects 4 MiB",
  ]);
  assertEquals(scavenges(trace, 0).length, 2);
});

Deno.test("bySite: self bytes per allocating frame; a native frame is named by its caller", () => {
  const frame = (functionName: string, url: string, lineNumber: number) => ({
    functionName,
    url,
    lineNumber,
  });
  const root = {
    callFrame: frame("(root)", "", 0),
    selfSize: 0,
    children: [{
      callFrame: frame("handle", "file:///srv/app/edge/hit.ts", 9),
      selfSize: 100,
      children: [
        { callFrame: frame("", "", 0), selfSize: 40, children: [] },
        { callFrame: frame("handle", "file:///srv/app/edge/hit.ts", 9), selfSize: 5, children: [] },
      ],
    }],
  };
  const sites = bySite(root);
  assertEquals(sites.get("handle file:///srv/app/edge/hit.ts:10"), 105);
  assertEquals(sites.get("(anon) :1 < handle file:///srv/app/edge/hit.ts:10"), 40);
  assertEquals(sites.size, 2);
});
