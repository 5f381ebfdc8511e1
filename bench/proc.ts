/** Child processes for the benchmark: started, awaited until ready, always stopped. */

export type Child = {
  ready: Record<string, unknown>;
  pid: number;
  stop(): Promise<void>;
};

/**
 * Spawns `cmd`, waits (bounded) for a JSON line with `"ready":true` on stdout and
 * returns it. Stderr is kept for the error message if the child dies first.
 */
export async function spawnReady(
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 60_000,
): Promise<Child> {
  const child = new Deno.Command(cmd, {
    args,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const errText = new Response(child.stderr).text();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  const deadline = Date.now() + timeoutMs;
  let ready: Record<string, unknown> | null = null;
  while (ready === null) {
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${cmd} ${args.join(" ")}: not ready within ${timeoutMs} ms`);
    }
    const { done, value } = await lines.read();
    if (done) {
      throw new Error(`${cmd} ${args.join(" ")} exited before ready:\n${await errText}`);
    }
    buf += value;
    let nl;
    while ((nl = buf.indexOf("\n")) !== -1) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      try {
        const j = JSON.parse(line);
        if (j && j.ready === true) ready = j;
      } catch { /* a log line */ }
    }
  }
  // Keep draining stdout so the child never blocks on a full pipe.
  (async () => {
    while (!(await lines.read()).done) { /* discard */ }
  })().catch(() => {});
  return {
    ready,
    pid: child.pid,
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      const t = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch { /* gone */ }
      }, 5_000);
      await child.status;
      clearTimeout(t);
    },
  };
}

/** Runs a command to completion and returns its stdout (throws with stderr on failure). */
export async function run(cmd: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
  const dec = new TextDecoder();
  if (!out.success) {
    throw new Error(`${cmd} ${args.join(" ")} failed:\n${dec.decode(out.stderr)}`);
  }
  return dec.decode(out.stdout);
}

export async function which(cmd: string): Promise<string | null> {
  try {
    return (await run("sh", ["-c", `command -v ${cmd}`])).trim() || null;
  } catch {
    return null;
  }
}
