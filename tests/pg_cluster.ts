/**
 * A throwaway PostgreSQL cluster for tests that stop and restart "the database"
 * (outages) without touching the machine's server other tests use: initdb in a temp dir,
 * pg_ctl on a free port, trust auth. Run as the `postgres` user when the test runs as
 * root (PostgreSQL refuses root). `null` with the reason when the binaries are missing.
 */
import { freePort } from "./instances.ts";

const BIN_DIRS = [
  "/usr/lib/postgresql/17/bin",
  "/usr/lib/postgresql/16/bin",
  "/usr/lib/postgresql/15/bin",
];

function exists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

export type Cluster = {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  start(): Promise<void>;
  /** `immediate` is a crash (no shutdown checkpoint); `fast` a clean stop. */
  stop(mode?: "fast" | "immediate"): Promise<void>;
  close(): Promise<void>;
};

/** Where initdb and pg_ctl are, or null. */
export function clusterBinaries(): string | null {
  return BIN_DIRS.find((d) => exists(`${d}/initdb`) && exists(`${d}/pg_ctl`)) ?? null;
}

export async function throwawayCluster(): Promise<Cluster | string> {
  const bin = clusterBinaries();
  if (!bin) return "no PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql";
  const asRoot = Deno.uid() === 0;
  // Found by path, not PATH: a root shell's PATH may lack /usr/sbin (then this test skips
  // saying why, rather than failing on a spawn error).
  const runuser = ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"].find(exists);
  if (asRoot && !runuser) return "running as root and there is no runuser to start the server";
  const dir = await Deno.makeTempDir({ prefix: "cachely_pg_" });
  if (asRoot) {
    const pg = new Deno.Command("id", { args: ["-u", "postgres"], stdout: "piped" }).outputSync();
    if (!pg.success) return "running as root and there is no postgres user to run the server";
    const uid = Number(new TextDecoder().decode(pg.stdout).trim());
    await Deno.chown(dir, uid, null);
  }
  const run = async (tool: string, args: string[]) => {
    const cmd = asRoot ? runuser! : `${bin}/${tool}`;
    const full = asRoot ? ["-u", "postgres", "--", `${bin}/${tool}`, ...args] : args;
    const out = await new Deno.Command(cmd, { args: full, stdout: "piped", stderr: "piped" })
      .output();
    if (!out.success) {
      throw new Error(`${tool} failed: ${new TextDecoder().decode(out.stderr)}`);
    }
  };
  await run("initdb", ["-D", `${dir}/data`, "-A", "trust", "-U", "postgres", "--no-sync"]);
  const port = freePort();
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () =>
    run("pg_ctl", ["-D", `${dir}/data`, "-o", opts, "-l", `${dir}/log`, "-w", "start"]);
  const stop = (mode: "fast" | "immediate" = "fast") =>
    run("pg_ctl", ["-D", `${dir}/data`, "-m", mode, "-w", "stop"]);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    async close() {
      await stop("immediate").catch(() => {});
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}
