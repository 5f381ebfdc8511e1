/**
 * The bench tools' client of V8's inspector (Chrome DevTools Protocol over a WebSocket) in a
 * process started with `--inspect=127.0.0.1:<port>`: bench/profile.ts, bench/heap_snapshot.ts,
 * bench/hit_survivors.ts.
 */

/** The process's debugger WebSocket URL, waiting (up to 30 s) for the inspector to listen. */
export async function inspectorUrl(port: number): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
      if (list[0]?.webSocketDebuggerUrl) return list[0].webSocketDebuggerUrl;
    } catch { /* not up yet */ }
    if (Date.now() > deadline) throw new Error("inspector did not come up");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Commands with their results; `onEvent` gets the protocol's events (method, params). A
 * command the inspector refuses rejects with its error; if the socket closes (the process
 * ended), every command still waiting rejects, and later ones do too.
 */
export function cdp(url: string, onEvent?: (method: string, params: unknown) => void) {
  const ws = new WebSocket(url);
  let id = 0;
  let closed: Error | undefined;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    const waiter = m.id ? pending.get(m.id) : undefined;
    if (waiter) {
      pending.delete(m.id);
      if (m.error) waiter.reject(new Error(`CDP ${m.error.code}: ${m.error.message}`));
      else waiter.resolve(m.result);
    } else if (m.method) onEvent?.(m.method, m.params);
  };
  const open = new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve();
    ws.onclose = () => {
      closed = new Error(`inspector socket closed (${url})`);
      reject(closed);
      for (const w of pending.values()) w.reject(closed);
      pending.clear();
    };
  });
  open.catch(() => {}); // a close before any command is reported by the next send
  return {
    async send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
      await open;
      if (closed) throw closed;
      const my = ++id;
      const p = new Promise<T>((resolve, reject) =>
        pending.set(my, { resolve: resolve as (v: unknown) => void, reject })
      );
      ws.send(JSON.stringify({ id: my, method, params }));
      return await p;
    },
    close: () => ws.close(),
  };
}

const ROOT = new URL("../", import.meta.url).href;

/**
 * A profile frame's script URL, short: this repository's files relative to it (whichever
 * checkout runs), npm packages as `npm:<name>/…`, Deno's own (`ext:…`) as they are.
 */
export function shortUrl(url: string): string {
  if (url.startsWith(ROOT)) return url.slice(ROOT.length);
  return url.replace(/^.*\/node_modules\/(?:\.deno\/[^/]+\/node_modules\/)?/, "npm:")
    .replace(/^file:\/\/\/.*\/registry\.npmjs\.org\//, "npm:");
}
