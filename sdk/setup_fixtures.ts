/** Nuxt Prismic client files for the setup tests (setup_test.ts, setup_typecheck_test.ts). */

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
