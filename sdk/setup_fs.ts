/**
 * The files `cachely setup` may write (bin.ts, Node): only inside --dir, never through a symbolic
 * link. --dir itself is resolved once (a link to the project is fine); below it, every existing
 * component of a path setup writes is lstat-ed, so a link to a file or directory outside, or a
 * dangling link that a write would create a file through, is refused with an error naming it.
 * The final open adds O_NOFOLLOW for a link that appears between the check and the write.
 */
import { constants, lstat, mkdir, open, readFile, realpath, stat } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";

export type ProjectFiles = {
  readFile(name: string): Promise<string | null>;
  checkWrite(name: string): Promise<void>;
  writeFile(name: string, text: string): Promise<void>;
  isDir(name: string): Promise<boolean>;
};

export async function projectFiles(dir: string): Promise<ProjectFiles> {
  const root = await realpath(dir);
  const refuse = (name: string, why: string) =>
    new Error(
      `Refusing to write ${name}: ${why} (setup writes only inside --dir, never through a link)`,
    );

  async function checkWrite(name: string): Promise<void> {
    const rel = relative(root, resolve(root, name));
    if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) throw refuse(name, "outside --dir");
    const parts = rel.split(/[\\/]/);
    for (let i = 1; i <= parts.length; i++) {
      const shown = parts.slice(0, i).join("/");
      const info = await lstat(join(root, ...parts.slice(0, i))).catch((e) => {
        if ((e as { code?: string }).code === "ENOENT") return null;
        throw e;
      });
      if (info === null) return; // the rest does not exist yet: setup creates it, inside root
      if (info.isSymbolicLink()) throw refuse(name, `${shown} is a symbolic link`);
    }
  }

  return {
    readFile: (name) => readFile(join(root, name), "utf8").catch(() => null),
    checkWrite,
    async writeFile(name, text) {
      await checkWrite(name);
      const path = join(root, name);
      await mkdir(dirname(path), { recursive: true });
      const noFollow = constants.O_NOFOLLOW ?? 0; // not on Windows
      const fh = await open(
        path,
        constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | noFollow,
        0o644,
      ).catch((e) => {
        if ((e as { code?: string }).code === "ELOOP") {
          throw refuse(name, `${name} is a symbolic link`);
        }
        throw e;
      });
      try {
        await fh.writeFile(text);
      } finally {
        await fh.close();
      }
    },
    isDir: (name) => stat(join(root, name)).then((s) => s.isDirectory(), () => false),
  };
}
