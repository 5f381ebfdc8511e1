/**
 * Debian's Chromium for browser tests: where it is, how it must be started on these
 * machines (DESIGN "Gotchas"), and whether tests may run. Without it the tests fail in
 * CI (CI=true) and are skipped locally with a message.
 */
export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-quic",
  "--disable-sync",
];
export const hasChromium = await Deno.stat(CHROMIUM).then(() => true, () => false);
export const inCi = ["true", "1"].includes((Deno.env.get("CI") ?? "").toLowerCase());
if (!hasChromium && !inCi) {
  console.warn(
    `tests/e2e: ${CHROMIUM} is missing, browser tests skipped (apt-get install chromium)`,
  );
}

/** The island bundle is a build product (deno task build); browser tests build it first. */
export async function buildIslands(): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "build"],
    cwd: new URL("../../", import.meta.url),
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`deno task build failed: ${new TextDecoder().decode(out.stderr)}`);
  }
}
