/**
 * Large objects: a 50 MB video through the image-host asset route, whole and as a 1 MB
 * range, Cachely against nginx (target: throughput ≥ 0.8× nginx), with Cachely's RSS
 * sampled throughout (target: growth bounded by EDGE_CACHE_MAX_OBJECT_BYTES, since a body
 * over that bound is streamed through, never buffered). Interleaved rounds, medians.
 */
import type { Check, ResultRow, Scenario } from "../types.ts";
import { interleaved, probe, ratio, ratioCheck, row } from "../helpers.ts";
import { mib, rssOf, rssPeak } from "../rss.ts";
import { VIDEO_BYTES } from "../origin.ts";

const VIDEO = "/bench/video/upload/v1/video.mp4";
const RANGE = { range: "bytes=10485760-11534335" }; // 1 MiB in the middle
const MAX_OBJECT = 8 * 1024 * 1024; // EDGE_CACHE_MAX_OBJECT_BYTES default

export const scenario: Scenario = {
  name: "large",
  async run(ctx) {
    const { cachelyImg, nginx, floorProxy } = ctx.targets;
    const rows: ResultRow[] = [];
    const checks: Check[] = [];
    const maxObject = Number(ctx.cachelyEnv.EDGE_CACHE_MAX_OBJECT_BYTES ?? MAX_OBJECT);
    for (let i = 0; i < 2; i++) {
      await probe(nginx, VIDEO, "x-cache");
      await probe(cachelyImg, VIDEO, "x-cachely-cache");
    }
    // RSS while one connection streams the whole video (nothing else running on Cachely).
    const before = await rssOf(ctx.cachelyPid);
    const peak = rssPeak(ctx.cachelyPid);
    await ctx.wrk(cachelyImg, VIDEO, { connections: 1, durationSec: ctx.durationSec });
    const top = await peak.stop();
    const whole = { connections: 4 };
    const ranged = { connections: 16, headers: RANGE };
    const res = await interleaved(ctx, [
      { label: "50 MB video, whole", target: nginx, path: VIDEO, opts: whole },
      { label: "50 MB video, whole", target: cachelyImg, path: VIDEO, opts: whole },
      { label: "50 MB video, whole", target: floorProxy, path: VIDEO, opts: whole },
      { label: "50 MB video, 1 MB range", target: nginx, path: VIDEO, opts: ranged },
      { label: "50 MB video, 1 MB range", target: cachelyImg, path: VIDEO, opts: ranged },
      { label: "50 MB video, 1 MB range", target: floorProxy, path: VIDEO, opts: ranged },
    ]);
    const mbps = (rps: number, bytes: number) =>
      `${((rps * bytes) / 1024 / 1024).toFixed(0)} MiB/s`;
    const labels = ["50 MB video, whole", "50 MB video, 1 MB range"];
    const names = ["nginx", "cachely", floorProxy.name];
    res.forEach((r, i) => {
      const bytes = i < 3 ? VIDEO_BYTES : 1024 * 1024;
      rows.push(row(labels[i < 3 ? 0 : 1], names[i % 3], r, mbps(r.rps, bytes)));
    });
    for (const [k, label] of labels.entries()) {
      const [n, y, f] = res.slice(k * 3, k * 3 + 3);
      checks.push(
        ratioCheck(`${label}: throughput vs nginx`, ratio(y.rps, n.rps), 0.8),
        ratioCheck(`${label}: throughput vs the fetch-proxy floor`, ratio(y.rps, f.rps), 0.8),
      );
    }
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
        } MiB), so Cachely streams it through uncached (its declared length is over the bound, so nothing is buffered) and forwards ranges upstream. \`floor, fetch proxy\` is a bare Deno.serve that fetch()es the origin and returns its body: the runtime's own ceiling for a proxied stream.`,
        "nginx mirrors the same bound: `proxy_no_cache` for bodies over 8 MiB (by Content-Length), so both stream the whole video from the origin; for a range request nginx's proxy_cache still asks the origin for the whole body and cuts the range itself, while Cachely forwards the Range header.",
        "Whole: 4 connections; range: 16 connections. RSS is sampled every 100 ms from /proc during a separate run of one connection streaming the whole video.",
      ],
    };
  },
};
