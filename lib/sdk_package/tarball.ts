/**
 * The instance's own copy of @cachely/sdk as an npm tarball, so a customer installs the SDK
 * from the instance they use (`npm install https://<host>/sdk/cachely-sdk-<version>.tgz`)
 * without a registry release or this repository. It is packed in memory from the committed
 * sdk/dist/ (sdk/build.ts writes it and its `--check` keeps it current), because Deno Deploy's
 * filesystem is read-only and start-up should not run a build.
 */
import { tar, type TarEntry } from "./tar.ts";

const DIST = new URL("../../sdk/dist/", import.meta.url);

/** The packed SDK: its version, file name, gzipped bytes and a strong ETag. */
export type SdkTarball = {
  version: string;
  fileName: string;
  body: Uint8Array<ArrayBuffer>;
  etag: string;
};

/** `cachely-sdk-<version>.tgz`, the name `npm pack` gives @cachely/sdk. */
export const sdkTarballName = (version: string) => `cachely-sdk-${version}.tgz`;

let distVersion: Promise<string> | undefined;

/** The version in sdk/dist/package.json, the one the tarball carries (read once). */
export function sdkDistVersion(): Promise<string> {
  distVersion ??= Deno.readTextFile(new URL("package.json", DIST))
    .then((text) => String(JSON.parse(text).version));
  return distVersion;
}

let packed: Promise<SdkTarball> | undefined;

/** The tarball, packed on first use and then kept (sdk/dist does not change while running). */
export function sdkTarball(): Promise<SdkTarball> {
  packed ??= packDist(DIST).catch((e) => {
    packed = undefined; // a missing dist is worth retrying after a deploy fixes it
    throw e;
  });
  return packed;
}

/**
 * Packs `dist` as npm does: every file under `package/`, the package's bins 0755, the rest
 * 0644. Modes come from package.json, not the filesystem, which may not report them (Deploy).
 */
export async function packDist(dist: URL): Promise<SdkTarball> {
  const pkg = JSON.parse(await Deno.readTextFile(new URL("package.json", dist)));
  const bins = new Set(Object.values(pkg.bin ?? {}).map((p) => String(p).replace(/^\.\//, "")));
  const entries: TarEntry[] = [];
  for (const rel of (await listFiles(dist, "")).sort()) {
    const data = await Deno.readFile(new URL(rel, dist));
    entries.push({ path: `package/${rel}`, data, mode: bins.has(rel) ? 0o755 : 0o644 });
  }
  const stream = new Blob([tar(entries)]).stream().pipeThrough(new CompressionStream("gzip"));
  const body = new Uint8Array(await new Response(stream).arrayBuffer());
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
  const etag = `"${
    Array.from(digest.slice(0, 16), (b) => b.toString(16).padStart(2, "0")).join("")
  }"`;
  const version = String(pkg.version);
  return { version, fileName: sdkTarballName(version), body, etag };
}

async function listFiles(root: URL, prefix: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(new URL(prefix || ".", root))) {
    const rel = `${prefix}${e.name}`;
    if (e.isDirectory) out.push(...await listFiles(root, `${rel}/`));
    else if (e.isFile) out.push(rel);
  }
  return out;
}
