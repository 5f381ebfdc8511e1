import { assertEquals } from "../../tests/assert.ts";
import { FETCH_LOG_ENTRIES, FetchLog } from "./fetch_log.ts";

Deno.test("fetch log: past its bound the oldest note goes, the latest are all kept", () => {
  const log = new FetchLog(3);
  for (const k of ["a", "b", "c", "d"]) log.note(k, 1, `s-${k}`);
  assertEquals(log.size, 3);
  assertEquals(log.get("a"), undefined);
  assertEquals(["b", "c", "d"].map((k) => log.get(k)?.status), ["s-b", "s-c", "s-d"]);
  // noting a key again makes it the newest: the next one pushes out "c", not "b"
  log.note("b", 2, "s-b2");
  log.note("e", 3, "s-e");
  assertEquals(log.get("c"), undefined);
  assertEquals(log.get("b"), { at: 2, status: "s-b2" });
  assertEquals(log.size, 3);
});

Deno.test("fetch log: the default bound keeps the last FETCH_LOG_ENTRIES fetches", () => {
  const log = new FetchLog();
  const n = FETCH_LOG_ENTRIES + 10;
  for (let i = 0; i < n; i++) log.note(`k${i}`, i, "s");
  assertEquals(log.size, FETCH_LOG_ENTRIES);
  assertEquals(log.get(`k${n - 1}`)?.at, n - 1);
  assertEquals(log.get(`k${n - FETCH_LOG_ENTRIES}`)?.at, n - FETCH_LOG_ENTRIES);
  assertEquals(log.get(`k${n - FETCH_LOG_ENTRIES - 1}`), undefined);
});
