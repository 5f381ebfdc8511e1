import { assert, assertEquals } from "../tests/assert.ts";
import { ControlGate, edgeAfterControl } from "./control_gate.ts";
import type { App } from "./bootstrap.ts";
import type { Edge } from "../edge/types.ts";
import { silentLogger } from "./log.ts";

const refused = () => Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
const fakeApp = { flush: async () => {}, close: async () => {} } as unknown as App;

Deno.test("ControlGate: waits while starting, null while the database is unreachable, then the app", async () => {
  let calls = 0;
  const attempts: Array<PromiseWithResolvers<App>> = [];
  const gate = new ControlGate(
    () => {
      calls++;
      attempts.push(Promise.withResolvers<App>());
      return attempts.at(-1)!.promise;
    },
    silentLogger,
    () => {},
  );
  assertEquals(gate.app, null);
  const first = gate.ready(); // starts it
  gate.begin(); // once
  await Promise.resolve();
  assertEquals(calls, 1);
  attempts[0].reject(refused()); // unreachable: the waiting request is released with null
  assertEquals(await first, null);
  assertEquals(await gate.ready(), null, "still waiting to retry");
  await new Promise((r) => setTimeout(r, 1_100)); // the first retry comes after 1 s
  assertEquals(calls, 2);
  const second = gate.ready();
  attempts[1].resolve(fakeApp);
  assertEquals(await second, fakeApp);
  assertEquals(gate.app, fakeApp);
});

Deno.test("ControlGate: any other failure goes to `failed`, once", async () => {
  const failures: unknown[] = [];
  const gate = new ControlGate(
    () => Promise.reject(new Error("bad setting")),
    silentLogger,
    (e) => failures.push(e),
  );
  assertEquals(await gate.ready(), null);
  gate.begin();
  assertEquals(failures.map((e) => (e as Error).message), ["bad setting"]);
});

Deno.test("edgeAfterControl: edge requests wait for the control half, then go straight through", async () => {
  let handled = 0;
  const edge = {
    handle: () => (handled++, new Response("edge")),
    resolveDomain: () => Promise.resolve("t"),
  } as unknown as Edge;
  const started = Promise.withResolvers<App>();
  const gate = new ControlGate(() => started.promise, silentLogger, () => {});
  const gated = edgeAfterControl(edge, gate);
  const req = new Request("http://t.example/");
  const info = { clientIp: "127.0.0.1" };
  const pending = gated.handle(req, { surface: "tenant", slug: "t" }, info);
  assert(pending instanceof Promise);
  assertEquals(handled, 0, "nothing served before the database side is up");
  started.resolve(fakeApp);
  assertEquals(await (await pending).text(), "edge");
  const direct = gated.handle(req, { surface: "tenant", slug: "t" }, info);
  assert(direct instanceof Response, "after start: the edge's own synchronous answer");
  assertEquals(await gated.resolveDomain("x.example"), "t");
});

Deno.test("edgeAfterControl: 503 with Retry-After while the database cannot be reached", async () => {
  const edge = { handle: () => new Response("edge") } as unknown as Edge;
  let calls = 0;
  const gate = new ControlGate(
    () => ++calls === 1 ? Promise.reject(refused()) : Promise.resolve(fakeApp),
    silentLogger,
    () => {},
  );
  const res = await edgeAfterControl(edge, gate).handle(
    new Request("http://t.example/"),
    { surface: "tenant", slug: "t" },
    { clientIp: "127.0.0.1" },
  );
  assertEquals(res.status, 503);
  assertEquals(res.headers.get("retry-after"), "5");
  assertEquals((await res.json()).error.code, "unavailable");
  await new Promise((r) => setTimeout(r, 1_100)); // the retry, 1 s later, starts it
  assertEquals(await gate.ready(), fakeApp);
});

Deno.test("ControlGate: a start that hangs leaves a waiting request with null after its bound", async () => {
  const never = Promise.withResolvers<App>();
  const gate = new ControlGate(() => never.promise, silentLogger, () => {});
  const t0 = performance.now();
  assertEquals(await gate.ready(50), null);
  assert(performance.now() - t0 < 1_000);
  never.resolve(fakeApp);
  assertEquals(await gate.ready(50), fakeApp);
});
