/** A CMS list answer for benches and tests: prose-like JSON that compresses as real content does. */

/** Words drawn by a seeded generator: text that compresses like prose, not like a repeat. */
const WORDS = ("edge cache content model entry asset image title summary author locale field " +
  "reference published draft preview release tenant origin header request answer list page " +
  "slug rich text paragraph heading link embed gallery video caption alt width height format " +
  "quality crop focus tag category series issue volume chapter section note quote table row")
  .split(" ");

function words(seed: number, n: number): string {
  let x = seed * 2654435761 >>> 0;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out.push(WORDS[(x >>> 8) % WORDS.length]);
  }
  return out.join(" ");
}

/**
 * A CMS list answer of ~40 KB: 36 entries of prose-like fields (gzip takes it to ~25 %), with
 * `edit` appended to one entry's title (a one-field edit between two versions).
 */
export function cmsList(n = 36, edit = ""): string {
  const items = Array.from({ length: n }, (_, i) => ({
    sys: {
      id: `5KsDBWseXY6QegucYAoacS${(i * 7919).toString(36)}`,
      type: "Entry",
      revision: 3 + (i % 5),
      createdAt: new Date(Date.UTC(2026, 0, 1 + i, i % 24, (i * 13) % 60)).toISOString(),
    },
    fields: {
      title: words(i, 6) + (i === 7 ? edit : ""),
      slug: words(i + 1000, 4).replaceAll(" ", "-"),
      summary: words(i + 2000, 24),
      body: words(i + 3000, 110),
      tags: words(i + 4000, 3).split(" "),
    },
  }));
  return JSON.stringify({ total: n, skip: 0, limit: n, items });
}
