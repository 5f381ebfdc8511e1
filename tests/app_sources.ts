/** The app's own source files (what main.ts and cli.ts load), for tests of source rules. */
import { APP_DIRS, APP_FILES } from "../scripts/source_roots.ts";

export const ROOT = new URL("../", import.meta.url);
const ROOTS = [...APP_DIRS, ...APP_FILES];

/** Non-test .ts/.tsx files under ROOTS, relative to the repository, sorted. */
export async function appSourceFiles(): Promise<string[]> {
  const out: string[] = [];
  const walk = async (p: string): Promise<void> => {
    const st = await Deno.stat(new URL(p, ROOT));
    if (st.isFile) {
      if (/\.tsx?$/.test(p) && !/_test\.tsx?$/.test(p) && !p.endsWith(".d.ts")) out.push(p);
      return;
    }
    for await (const e of Deno.readDir(new URL(p, ROOT))) {
      if (e.name === "node_modules" || e.name === "dist") continue;
      await walk(`${p}/${e.name}`);
    }
  };
  for (const r of ROOTS) await walk(r);
  return out.sort();
}
