/**
 * Size of the dashboard's island bundle (`deno task build` → static/build/islands.js):
 * raw and gzip bytes, so a change that bloats the client shows up as a number.
 * Run: `deno run -A bench/island_bundle.ts`.
 */
const root = new URL("../", import.meta.url);
const out = await new Deno.Command(Deno.execPath(), { args: ["task", "build"], cwd: root })
  .output();
if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
const bytes = await Deno.readFile(new URL("static/build/islands.js", root));
const gz = new Uint8Array(
  await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip")))
    .arrayBuffer(),
);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
console.log(`islands.js: ${kb(bytes.length)} raw, ${kb(gz.length)} gzip`);
