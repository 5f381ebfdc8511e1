/** A tenant behind a loopback fake upstream, and a visitor's GET on its host. */
import { Client, createTenant, PROXY_DOMAIN, signUp, type TestApp } from "./harness.ts";
import type { FakeUpstream } from "./fakes/upstream.ts";

export async function tenantOnUpstream(app: TestApp, up: FakeUpstream) {
  const owner = await signUp(app);
  const slug = await createTenant(owner, { apiOrigin: up.url });
  const visitor = new Client(app);
  const get = (path: string, headers?: Record<string, string>) =>
    visitor.get(`http://${slug}.${PROXY_DOMAIN}${path}`, headers);
  return { owner, slug, get };
}
