/**
 * `cachely setup` writes only inside --dir: never through a symbolic link (to a file, to a
 * directory, or dangling), and --framework is one of the known names. Runs the built bin in Node.
 */
import { assert, assertEquals } from "../tests/assert.ts";
import { bin } from "./setup_fixtures.ts";

const PROXY = ["--proxy-url", "http://acme.localhost:8000"];
const SPACE = ["--space-id", "abc123xyz"];
const NEXT = JSON.stringify({ dependencies: { next: "15", contentful: "11" } });

/** root/project (the --dir, a Next project) beside root/outside.txt and root/outdir/. */
async function layout(): Promise<{ root: string; dir: string }> {
  const root = await Deno.makeTempDir({ prefix: "cachely-setup-link-" });
  const dir = `${root}/project`;
  await Deno.mkdir(dir);
  await Deno.mkdir(`${root}/outdir`);
  await Deno.writeTextFile(`${dir}/package.json`, NEXT);
  await Deno.writeTextFile(`${root}/outside.txt`, "OUTSIDE\n");
  return { root, dir };
}

const exists = (p: string) => Deno.lstat(p).then(() => true, () => false);

Deno.test("setup refuses to write through a symbolic link and names the path", async () => {
  const cases: [string, (dir: string) => Promise<void>, string][] = [
    [
      ".env.example → a file outside",
      (d) => Deno.symlink("../outside.txt", `${d}/.env.example`),
      ".env.example",
    ],
    ["a dangling lib/cachely.ts", async (d) => {
      await Deno.mkdir(`${d}/lib`);
      await Deno.symlink("../../created-by-setup.ts", `${d}/lib/cachely.ts`);
    }, "lib/cachely.ts"],
    ["lib/cachely.ts → a file outside (--yes)", async (d) => {
      await Deno.mkdir(`${d}/lib`);
      await Deno.symlink("../../outside.txt", `${d}/lib/cachely.ts`);
    }, "lib/cachely.ts"],
    ["lib → a directory outside", (d) => Deno.symlink("../outdir", `${d}/lib`), "lib"],
    [
      "cachely.config.json → a file outside",
      (d) => Deno.symlink("../outside.txt", `${d}/cachely.config.json`),
      "cachely.config.json",
    ],
  ];
  for (const [name, link, path] of cases) {
    const { root, dir } = await layout();
    try {
      await link(dir);
      const args = ["setup", ...PROXY, "--space-id", "abc123xyz", "--yes", "--force", "--dir", dir];
      for (const extra of [["--dry-run"], []]) {
        const r = await bin("/", [...args, ...extra]);
        assertEquals(r.code, 1, `${name} ${extra}: ${r.stdout} ${r.stderr}`);
        assert(
          r.stderr.includes(`${path} is a symbolic link`),
          `${name} ${extra}: names the path: ${r.stderr}`,
        );
      }
      assertEquals(await Deno.readTextFile(`${root}/outside.txt`), "OUTSIDE\n", name);
      assertEquals(await exists(`${root}/created-by-setup.ts`), false, name);
      assertEquals([...Deno.readDirSync(`${root}/outdir`)].length, 0, name);
      if (!path.startsWith("cachely.config")) {
        assertEquals(await exists(`${dir}/cachely.config.json`), false, `${name}: nothing written`);
      }
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  }
});

Deno.test("setup follows a symbolic link to --dir itself, and writes inside it", async () => {
  const { root, dir } = await layout();
  try {
    await Deno.symlink(dir, `${root}/alias`);
    const r = await bin("/", [
      "setup",
      ...PROXY,
      "--space-id",
      "abc123xyz",
      "--yes",
      "--dir",
      `${root}/alias`,
    ]);
    assertEquals(r.code, 0, r.stderr);
    assert((await Deno.readTextFile(`${dir}/lib/cachely.ts`)).includes("createClient"));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("setup takes --framework only from the known list", async () => {
  const { root, dir } = await layout();
  try {
    for (const bad of ["../../x", "Next", "lib/x"]) {
      const r = await bin("/", [
        "init",
        ...PROXY,
        ...SPACE,
        "--framework",
        bad,
        "--yes",
        "--dir",
        dir,
      ]);
      assertEquals(r.code, 2, `${bad}: ${r.stderr}`);
      assert(r.stderr.includes(`Invalid --framework: ${bad} (one of next, nuxt,`), r.stderr);
      assertEquals(await exists(`${dir}/cachely.config.json`), false, bad);
    }
    const ok = await bin("/", [
      "init",
      ...PROXY,
      ...SPACE,
      "--framework",
      "nuxt",
      "--yes",
      "--dir",
      dir,
    ]);
    assertEquals(ok.code, 0, ok.stderr);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
