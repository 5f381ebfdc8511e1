/**
 * Read your publish over merged purge records: a merged record (lib/cache/purge_compact.ts)
 * gives the same decisions as the records it merged, at every time in the wait.
 */
import { assert, assertEquals } from "../tests/assert.ts";
import { behindPublish } from "./publish_revisions.ts";
import { mergeTagPurges } from "../lib/cache/purge_compact.ts";
import type { Announced, PurgeRecord } from "../lib/kv/snapshot.ts";
import { ENTITIES } from "../sdk/entities/mod.ts";
import type { AnswerEntities } from "../sdk/entities/mod.ts";

const T = 1_800_000_000_000;
const k = ENTITIES.contentful!;

function record(at: number, a: Announced): PurgeRecord {
  const tags = [...a.ids.map((id) => `e-${id}`), ...(a.types ?? []).map((t) => `ct-${t}`)];
  return { at, urls: [], prefixes: [], tags, announced: a };
}
const publish = (id: string, revision: number, type = "post"): Announced => ({
  action: "publish",
  ids: [id],
  types: [type],
  revisions: { [id]: revision },
});

const entry = (id: string, revision: number) => ({ sys: { type: "Entry", id, revision } });
const one = (id: string, revision: number) => ({
  answer: { ids: [id], types: [], list: false, wide: false, complete: false } as AnswerEntities,
  body: entry(id, revision),
});
const list = (items: [string, number][]) => ({
  answer: {
    ids: items.map(([id]) => id),
    types: ["post"],
    list: true,
    wide: false,
    complete: true,
  } as AnswerEntities,
  body: { sys: { type: "Array" }, items: items.map(([id, r]) => entry(id, r)) },
});

Deno.test("read your publish decides the same over merged records as over separate ones", () => {
  const separate = [
    record(T - 70_000, publish("old", 4)), // past the wait when merged
    record(T, publish("alpha", 2)),
    record(T + 10, { action: "unpublish", ids: ["beta"], types: ["post"], revisions: {} }),
    record(T + 20, publish("alpha", 3)), // alpha announced again: the latest counts
    record(T + 30, {
      action: "publish",
      ids: ["gamma", "delta"],
      types: ["post"],
      revisions: { gamma: 1, delta: 7 },
    }),
    { at: T + 40, urls: [], prefixes: [], tags: ["home"] }, // a tag purge of the API
  ];
  const merged = mergeTagPurges(separate, T + 40);
  assertEquals(merged.announcements?.map((a) => a.ids), [["beta"], ["alpha"], ["gamma", "delta"]]);
  assertEquals(merged.announcements?.[1].revisions, { alpha: 3 });
  assertEquals(merged.at, T + 40);
  const answers = {
    alpha2: one("alpha", 2),
    alpha3: one("alpha", 3),
    beta: one("beta", 1),
    delta6: one("delta", 6),
    old3: one("old", 3),
    posts: list([["alpha", 3], ["delta", 7]]), // lacks gamma
    all: list([["alpha", 3], ["delta", 7], ["gamma", 1]]),
  };
  const expected: Record<string, string | null> = {
    alpha2: "alpha: 2 < 3",
    alpha3: null,
    beta: "beta: still served",
    delta6: "delta: 6 < 7",
    old3: null,
    posts: "gamma: missing",
    all: null,
  };
  for (
    const now of [T + 40, T + 1_000, T + 59_990, T + 60_015, T + 60_025, T + 60_035, T + 90_000]
  ) {
    for (const [name, a] of Object.entries(answers)) {
      const want = behindPublish(separate, k, a.answer, a.body, now);
      assertEquals(
        behindPublish([merged], k, a.answer, a.body, now),
        want,
        `${name} at +${now - T}`,
      );
      if (now === T + 40) assertEquals(want, expected[name], name);
    }
  }
  assert(
    behindPublish([merged], k, answers.alpha2.answer, answers.alpha2.body, T + 60_025) === null,
  );
});

Deno.test("merging a merged record keeps its announcements and each tag's time", () => {
  const first = mergeTagPurges(
    [record(T, publish("alpha", 2)), record(T + 5, publish("beta", 1))],
    T + 5,
  );
  const second = mergeTagPurges([first, record(T + 9, publish("alpha", 3))], T + 9);
  assertEquals(second.announcements?.map((a) => [a.ids, a.at]), [[["beta"], T + 5], [
    ["alpha"],
    T + 9,
  ]]);
  const times = Object.fromEntries(second.tags.map((t, i) => [t, second.tagTimes![i]]));
  assertEquals(times, { "e-alpha": T + 9, "ct-post": T + 9, "e-beta": T + 5 });
});
