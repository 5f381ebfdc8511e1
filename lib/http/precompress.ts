/**
 * `deno task build`'s last step: a br (quality 11) and a gzip (level 9) copy beside each
 * bundle in a directory, made once per build so no request pays for them
 * (lib/http/page_compression.ts serves them). `deno run -A lib/http/precompress.ts <dir>`.
 */
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/** Writes `<file>.br` and `<file>.gz` for every .js, .css and .map file in `dir`. */
export async function precompressDir(dir: string): Promise<string[]> {
  const written: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (!e.isFile || !/\.(?:js|css|map)$/.test(e.name)) continue;
    const path = `${dir}/${e.name}`;
    const body = await Deno.readFile(path);
    const br = brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
    await Deno.writeFile(`${path}.br`, br);
    await Deno.writeFile(`${path}.gz`, gzipSync(body, { level: 9 }));
    written.push(path);
  }
  return written;
}

if (import.meta.main) {
  const dir = Deno.args[0] ?? "static/build";
  for (const f of await precompressDir(dir)) console.log(`precompressed ${f}`);
}
