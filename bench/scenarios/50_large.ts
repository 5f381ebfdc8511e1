/**
 * Large objects: a 50 MB video through the image-host asset route, whole and as a 1 MB
 * range, Cachely against nginx (target: throughput ≥ 0.8× nginx), with Cachely's RSS
 * sampled throughout (target: growth bounded by EDGE_CACHE_MAX_OBJECT_BYTES, since a body
 * over that bound is streamed through, never buffered). Interleaved rounds, medians.
 */
import type { Check, ResultRow, Scenario, Target } from "../types.ts";
import { interleaved, probe, ratio, ratioCheck, row } from "../helpers.ts";
import { mib, rssOf, rssPeak } from "../rss.ts";
import { VIDEO_BYTES } from "../origin.ts";

const VIDEO = "/bench/video/upload/v1/video.mp4";
const RANGE = { range: "bytes=10485760-11534335" }; // 1 MiB in the middle, one aligned slice
const UNALIGNED = { range: "bytes=10000000-11048575" }; // 1 MiB across two slices
const MiB = 1024 * 1024;
/** The last 10 MiB, open-ended: what Chrome's player asks when it seeks near the end. */
const OPEN = { range: `bytes=${40 * MiB}-` };
const MAX_OBJECT = 8 * MiB; // EDGE_CACHE_MAX_OBJECT_BYTES default

export const scenario: Scenario = {
  name: "large",
  async run(ctx) {
    const { cachelyImg, nginx, floorProxy } = ctx.targets;
    const rows: ResultRow[] = [];
    const checks: Check[] = [];
    const maxObject = Number(ctx.cachelyEnv.EDGE_CACHE_MAX_OBJECT_BYTES ?? MAX_OBJECT);
    // Both must stream from the origin on every request (nothing over the bound is cached):
    // three requests each, at least three origin fetches each (Cachely's first request for
    // a URL it did not know to be large asks twice: edge/upstream_client.ts).
    const streamed: Record<string, number> = {};
    for (const t of [nginx, cachelyImg]) {
      const before = await ctx.originCount(VIDEO);
      for (let i = 0; i < 3; i++) await probe(t, VIDEO, "x-cache");
      streamed[t.name] = (await ctx.originCount(VIDEO)) - before;
    }
    // RSS while one connection streams the whole video (nothing else running on Cachely).
    const before = await rssOf(ctx.cachelyPid);
    const peak = rssPeak(ctx.cachelyPid);
    await ctx.wrk(cachelyImg, VIDEO, { connections: 1, durationSec: ctx.durationSec });
    const top = await peak.stop();
    // A 1 MB range: Cachely cuts it from its cached 1 MiB slice (edge/slices.ts); the
    // reference is nginx's slice module with proxy_cache (bench/nginx.ts `/slice/`). Each
    // must fetch the slice once, then answer from its cache.
    const nginxSlice: Target = { ...nginx, name: "nginx, slice cache", path: (p) => `/slice${p}` };
    const sliced: Record<string, number> = {};
    const openSliced: Record<string, number> = {};
    for (const t of [nginxSlice, cachelyImg]) {
      let before = await ctx.originCount(VIDEO);
      for (let i = 0; i < 3; i++) await probe(t, VIDEO, "x-cache", RANGE);
      sliced[t.name] = (await ctx.originCount(VIDEO)) - before;
      before = await ctx.originCount(VIDEO);
      for (let i = 0; i < 3; i++) await probe(t, VIDEO, "x-cache", OPEN);
      openSliced[t.name] = (await ctx.originCount(VIDEO)) - before;
    }
    const whole = { connections: 4 };
    const ranged = { connections: 16, headers: RANGE };
    const across = { connections: 16, headers: UNALIGNED };
    const open = { connections: 4, headers: OPEN };
    const res = await interleaved(ctx, [
      { label: "50 MB video, whole", target: nginx, path: VIDEO, opts: whole },
      { label: "50 MB video, whole", target: cachelyImg, path: VIDEO, opts: whole },
      { label: "50 MB video, whole", target: floorProxy, path: VIDEO, opts: whole },
      { label: "50 MB video, 1 MB range", target: nginxSlice, path: VIDEO, opts: ranged },
      { label: "50 MB video, 1 MB range", target: cachelyImg, path: VIDEO, opts: ranged },
      { label: "50 MB video, 1 MB range", target: nginx, path: VIDEO, opts: ranged },
      { label: "50 MB video, 1 MB range", target: floorProxy, path: VIDEO, opts: ranged },
      { label: "1 MB range across two slices", target: nginxSlice, path: VIDEO, opts: across },
      { label: "1 MB range across two slices", target: cachelyImg, path: VIDEO, opts: across },
      { label: "10 MiB open-ended range", target: nginxSlice, path: VIDEO, opts: open },
      { label: "10 MiB open-ended range", target: cachelyImg, path: VIDEO, opts: open },
    ]);
    const mbps = (rps: number, bytes: number) =>
      `${((rps * bytes) / 1024 / 1024).toFixed(0)} MiB/s`;
    const [wn, wy, wf, rn, ry, rs, rf, un, uy, on, oy] = res;
    const OPENED = "50 MB video, open-ended range (last 10 MiB)";
    const WHOLE = "50 MB video, whole", RANGED = "50 MB video, 1 MB range";
    rows.push(
      row(WHOLE, "nginx", wn, mbps(wn.rps, VIDEO_BYTES)),
      row(WHOLE, "cachely", wy, mbps(wy.rps, VIDEO_BYTES)),
      row(WHOLE, floorProxy.name, wf, mbps(wf.rps, VIDEO_BYTES)),
      row(RANGED, nginxSlice.name, rn, mbps(rn.rps, MiB)),
      row(RANGED, "cachely (slice cache)", ry, mbps(ry.rps, MiB)),
      row(RANGED, "nginx, streaming (context)", rs, mbps(rs.rps, MiB)),
      row(RANGED, `${floorProxy.name} (context)`, rf, mbps(rf.rps, MiB)),
      row(`${RANGED}, across two slices`, nginxSlice.name, un, mbps(un.rps, MiB)),
      row(`${RANGED}, across two slices`, "cachely (slice cache)", uy, mbps(uy.rps, MiB)),
      row(OPENED, nginxSlice.name, on, mbps(on.rps, 10 * MiB)),
      row(OPENED, "cachely (slices, streamed)", oy, mbps(oy.rps, 10 * MiB)),
    );
    checks.push(
      ratioCheck(`${WHOLE}: throughput vs nginx`, ratio(wy.rps, wn.rps), 0.8),
      ratioCheck(`${WHOLE}: throughput vs the fetch-proxy floor`, ratio(wy.rps, wf.rps), 0.8),
      ratioCheck(`${RANGED}: throughput vs nginx's slice cache`, ratio(ry.rps, rn.rps), 0.8),
      ratioCheck(
        `${RANGED} across two slices: throughput vs nginx's slice cache (context)`,
        ratio(uy.rps, un.rps),
        0.8,
      ),
      ratioCheck(
        `${RANGED}: throughput vs nginx streaming it uncached (context)`,
        ratio(ry.rps, rs.rps),
        0.8,
      ),
      ratioCheck(`${OPENED}: throughput vs nginx's slice cache`, ratio(oy.rps, on.rps), 0.8),
      {
        name: `${OPENED}: origin fetches for 3 requests (nginx slice / Cachely)`,
        want: "exactly 10 / 10 (ten slices, then cache hits)",
        got: `${openSliced[nginxSlice.name]} / ${openSliced[cachelyImg.name]}`,
        pass: openSliced[nginxSlice.name] === 10 && openSliced[cachelyImg.name] === 10,
      },
      {
        name: `${RANGED}: origin fetches for 3 requests (nginx slice / Cachely)`,
        want: "exactly 1 / 1 (one slice, then cache hits)",
        got: `${sliced[nginxSlice.name]} / ${sliced[cachelyImg.name]}`,
        pass: sliced[nginxSlice.name] === 1 && sliced[cachelyImg.name] === 1,
      },
    );
    checks.push({
      name: "50 MB video: origin fetches per request (nginx / Cachely; nothing cached)",
      want: "≥ 3 / ≥ 3 for 3 requests",
      got: `${streamed[nginx.name]} / ${streamed[cachelyImg.name]}`,
      pass: streamed[nginx.name] >= 3 && streamed[cachelyImg.name] >= 3,
    });
    const growth = top - before;
    checks.push({
      name: "50 MB video: Cachely RSS growth while streaming",
      want: `≤ ${mib(maxObject)} MiB (EDGE_CACHE_MAX_OBJECT_BYTES)`,
      got: `${mib(growth)} MiB (${mib(before)} → peak ${mib(top)} MiB)`,
      pass: growth <= maxObject,
    });
    return {
      title: "Large objects (50 MB video)",
      rows,
      checks,
      notes: [
        "Cachely serves the video through the image-host asset route (`/video/upload/…` of tenant `benchimg`, origin `<origin>/bench/video/upload/…`); nginx proxies the same origin path with proxy_cache.",
        `The video is larger than EDGE_CACHE_MAX_OBJECT_BYTES (${
          mib(maxObject)
        } MiB), so Cachely streams it whole uncached (its declared length is over the bound, so nothing is buffered). \`floor, fetch proxy\` is a bare Deno.serve that fetch()es the origin and returns its body: the runtime's own ceiling for a proxied stream.`,
        'Whole: nginx streams `/video/upload/` with proxy_cache off, as Cachely streams a body over its bound: every request reaches the origin (checked above). Its buffers are tuned for streaming (`proxy_buffers 16 64k`, `proxy_max_temp_file_size 0`), the fastest of four set-ups measured (bench/ANALYSIS.md "An upstream client of our own, an honest video reference, the header read").',
        "1 MB range (one aligned 1 MiB slice of the video): Cachely cuts a closed range from cached 1 MiB slices, each fetched once from the origin with its own Range (edge/slices.ts); the reference is what an operator configures for ranges of big media with nginx, the slice module (`slice 1m`, `proxy_cache_key …$slice_range`, `proxy_cache_valid 200 206`) with its cache on the same tmpfs. For context, nginx and the fetch-proxy floor streaming the range from the origin uncached (what Cachely does without slices), and a 1 MiB range that starts mid-slice (bytes=10000000-11048575), cut from two slices by both.",
        "Open-ended range (`bytes=41943040-`, the last 10 MiB, what Chrome's player asks when it seeks): Cachely streams it from the same cached slices, one after another (edge/slices.ts streamSlices); nginx's slice module likewise.",
        "Whole and open-ended: 4 connections; closed ranges: 16 connections. RSS is sampled every 100 ms from /proc during a separate run of one connection streaming the whole video.",
      ],
    };
  },
};
