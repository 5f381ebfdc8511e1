import { assertEquals, assertRejects } from "../assert.ts";
import { CAPTURE_MS, screenshot } from "./screenshot.ts";

/** A page whose captures answer as scripted: `false` is a stall (Playwright's timeout error). */
function scriptedPage(url: string, answers: boolean[]) {
  const calls: { path: string; timeout?: number }[] = [];
  return {
    calls,
    url: () => url,
    screenshot(options: { path?: string; timeout?: number }) {
      calls.push({ path: options.path ?? "", timeout: options.timeout });
      if (answers.shift()) return Promise.resolve(new Uint8Array() as never);
      return Promise.reject(new Error("page.screenshot: Timeout 10000ms exceeded.\nCall log:"));
    },
  };
}

Deno.test("screenshot: a stalled capture is tried once more on the same page", async () => {
  const page = scriptedPage("http://localhost/dashboard/acme/cache", [false, true]);
  await screenshot(page, { path: "/tmp/shot.png", fullPage: true });
  assertEquals(page.calls, [
    { path: "/tmp/shot.png", timeout: CAPTURE_MS },
    { path: "/tmp/shot.png", timeout: CAPTURE_MS },
  ]);
});

Deno.test("screenshot: with reopen, the second try is on the fresh page", async () => {
  const stalled = scriptedPage("http://localhost/a", [false]);
  const fresh = scriptedPage("http://localhost/a", [true]);
  await screenshot(stalled, { path: "/tmp/a.png" }, () => Promise.resolve(fresh));
  assertEquals([stalled.calls.length, fresh.calls.length], [1, 1]);
});

Deno.test("screenshot: two failures fail, naming the page and the reason", async () => {
  const page = scriptedPage("http://localhost/dashboard/acme/logs", [false, false]);
  const e = await assertRejects(() => screenshot(page, { path: "/tmp/b.png" }));
  assertEquals(
    (e as Error).message,
    "screenshot of http://localhost/dashboard/acme/logs failed twice: " +
      "page.screenshot: Timeout 10000ms exceeded.",
  );
});

Deno.test("screenshot: a capture that answers is taken once", async () => {
  const page = scriptedPage("http://localhost/", [true]);
  await screenshot(page, { path: "/tmp/c.png" });
  assertEquals(page.calls.length, 1);
});
