/** Fixtures for the setup tests: the built bin's runner and Nuxt Prismic client files. */

const BIN = new URL("./dist/bin/cachely.mjs", import.meta.url).pathname;

/** Runs the built bin in Node in `dir`. */
export async function bin(dir: string, args: string[]) {
  const out = await new Deno.Command("node", {
    args: [BIN, ...args],
    cwd: dir,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** The client a Slice Machine Nuxt project starts with (trivially patchable). */
export const NUXT_CLIENT = `import * as prismic from "@prismicio/client";
import sm from "../../slicemachine.config.json";

export default prismic.createClient(sm.repositoryName, {
  accessToken: process.env.PRISMIC_ACCESS_TOKEN,
  routes: [{ type: "page", path: "/:uid" }],
});
`;

/** A client that does more than createClient: left alone. */
export const COMPLEX_CLIENT = `import * as prismic from "@prismicio/client";

const client = prismic.createClient("my-repo");
client.enableAutoPreviews();
export const pages = () => client.getAllByType("page", { filters: [prismic.filter.at("my.page.live", true)] });
export default client;
`;
