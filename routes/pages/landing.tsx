/**
 * The landing page (/): what Cachely does in two sentences, the first steps in order, and
 * where to go next: sign up or log in (the dashboard once signed in) and the API reference.
 */
import type { Context } from "hono";
import type { AppEnv } from "../../lib/http/env.ts";
import { Layout } from "../../components/Layout.tsx";
import { page, pageUser } from "./render.tsx";

export function landingPage(c: Context<AppEnv>) {
  const user = pageUser(c);
  const { publicUrl, proxyDomain } = c.get("services").config;
  const tenantHost = `${new URL(publicUrl).protocol}//<tenant>.${proxyDomain}`;
  return page(
    c,
    <Layout title="Edge content proxy" user={user}>
      <h1>Cachely</h1>
      <p>
        Cachely sits between your site and your headless CMS: it caches the CMS's API answers at the
        edge and adds your API token there, so the token never reaches a browser. It also serves
        your media with clean URLs, and can rewrite content with AI and test variants against each
        other.
      </p>
      <h2>Get started</h2>
      <ol data-next-steps>
        <li>
          {user ? <a href="/dashboard">Go to your tenants</a> : (
            <>
              <a href="/signup">Create an account</a> (or <a href="/login">log in</a>).
            </>
          )}
        </li>
        <li>
          Create a tenant: name your CMS and its identifier (or your API's origin) and give it your
          delivery token.
        </li>
        <li>
          Point your site at <code>{tenantHost}/~api/{`\u2026`}</code>{" "}
          instead of the CMS's API; media URLs in the answers come back rewritten to the same host.
        </li>
        <li>
          Watch hits, bandwidth and errors under Usage; purge or tune caching per tenant.
        </li>
      </ol>
      <p>
        Every dashboard action is also a JSON endpoint: see the{" "}
        <a href="/api-reference">API reference</a>{" "}
        (with an OpenAPI document to generate a client from).
      </p>
    </Layout>,
  );
}
