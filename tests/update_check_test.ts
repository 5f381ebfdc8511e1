/**
 * A production start connects nowhere it was not asked to: `deno run` checks dl.deno.land for a
 * newer Deno (a background request once a day per DENO_DIR) unless DENO_NO_UPDATE_CHECK is set.
 * The start and migrate tasks set it. Checked by running each task's `deno run` command (the part
 * after its last `&&`, its variables set) as `deno task` would, with HTTPS_PROXY pointing at a loopback listener and a
 * DENO_DIR that shares the real cache but has no record of a past check: nothing may connect.
 */
import { assert, assertEquals } from "./assert.ts";
import { TEST_ENCRYPTION_KEY } from "./harness.ts";

const ROOT = new URL("..", import.meta.url).pathname;

/** A loopback "proxy" that records the first line each connection sends, and answers nothing. */
function startProxy() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const seen: string[] = [];
  (async () => {
    for await (const conn of listener) {
      const buf = new Uint8Array(256);
      conn.read(buf).then((n) => {
        seen.push(new TextDecoder().decode(buf.subarray(0, n ?? 0)).split("\r\n")[0]);
      }, () => {}).finally(() => conn.close());
    }
  })().catch(() => {});
  return { url: `http://127.0.0.1:${listener.addr.port}`, seen, close: () => listener.close() };
}

/** A DENO_DIR with the real one's caches (linked) and no latest.txt: the check is due. */
async function freshDenoDir(): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" })
    .output();
  const real = JSON.parse(new TextDecoder().decode(out.stdout)).denoDir as string;
  const dir = await Deno.makeTempDir({ prefix: "cachely-deno-dir-" });
  for (const e of Deno.readDirSync(real)) {
    if (e.name !== "latest.txt") await Deno.symlink(`${real}/${e.name}`, `${dir}/${e.name}`);
  }
  return dir;
}

/** The task's last command (`VAR=value … deno run …`): its environment and its deno arguments. */
function taskCommand(name: string): { env: Record<string, string>; args: string[] } {
  const tasks = JSON.parse(Deno.readTextFileSync(`${ROOT}/deno.json`)).tasks;
  const words = (tasks[name] as string).split("&&").pop()!.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (/^\w+=/.test(words[0])) {
    const [k, ...v] = words.shift()!.split("=");
    env[k] = v.join("=");
  }
  assertEquals(words.shift(), "deno", `${name}: ${tasks[name]}`);
  return { env, args: words };
}

Deno.test({
  name: "deno task start and migrate: the runtime's update check does not connect out",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const proxy = startProxy();
    const denoDir = await freshDenoDir();
    const data = await Deno.makeTempDir({ prefix: "cachely-update-check-" });
    const env = {
      DENO_DIR: denoDir,
      HTTPS_PROXY: proxy.url,
      HTTP_PROXY: proxy.url,
      NO_PROXY: "127.0.0.1,localhost",
      DATA_DIR: `${data}/data`,
      KV_PATH: `${data}/kv.sqlite3`,
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      PORT: "0",
      HOST: "127.0.0.1",
      NO_COLOR: "1",
    };
    try {
      for (const task of ["start", "migrate"]) {
        const command = taskCommand(task);
        const child = new Deno.Command(Deno.execPath(), {
          args: command.args,
          cwd: ROOT,
          env: { ...env, ...command.env },
          stdout: "piped",
          stderr: "piped",
        }).spawn();
        let text = "";
        const reading = child.stdout.pipeThrough(new TextDecoderStream()).pipeTo(
          new WritableStream({ write: (t) => void (text += t) }),
        );
        const exited = child.status.then(() => true);
        // The check starts 0.5 s after `deno run` does (seen: within 1 s): 3 s after the server
        // listens (or the migration started), unless the process is done before.
        const ready = () => task !== "start" || text.includes("cachely listening");
        for (let i = 0; i < 300 && !ready(); i++) await new Promise((r) => setTimeout(r, 100));
        await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
        try {
          child.kill("SIGTERM");
        } catch { /* exited */ }
        await child.status;
        await reading;
        const out = [
          text,
          new TextDecoder().decode(await new Response(child.stderr).arrayBuffer()),
        ];
        if (task === "start") assert(out.join("").includes("cachely listening"), out.join(""));
        assertEquals(proxy.seen, [], `${task}: connected out (${out.join("").slice(-500)})`);
      }
    } finally {
      proxy.close();
      await Deno.remove(denoDir, { recursive: true });
      await Deno.remove(data, { recursive: true });
    }
  },
});
