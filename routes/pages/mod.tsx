/** Server-rendered pages: landing, auth pages, dashboard, and static files. */
import { Hono } from "hono";
import type { AppEnv } from "../../lib/http/env.ts";
import { authenticate } from "../../lib/http/auth.ts";
import { pageSecurityHeaders } from "../../lib/http/security_headers.ts";
import { Layout } from "../../components/Layout.tsx";
import { page, pageError, pageUser } from "./render.tsx";
import { authPages } from "./auth.tsx";
import { oauthPages } from "./oauth.ts";
import { dashboardPages } from "./dashboard.tsx";
import { staticRoutes } from "./static.ts";
import { invitePages } from "./invites.tsx";
import { passwordResetPages } from "./password_reset.tsx";
import { verifyEmailPages } from "./verify_email.tsx";
import { type Dispatch, formBridge } from "./forms.tsx";
import { apiReferencePages } from "./api_reference.tsx";
import { loadApi } from "../api/lazy.ts";
import { adminPages } from "./admin/mod.tsx";
import { accountPages } from "./account/mod.tsx";

export function pageRoutes(dispatch: Dispatch): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use("*", pageSecurityHeaders);
  app.route("/static", staticRoutes());
  app.use("*", authenticate);
  app.get("/", (c) =>
    page(
      c,
      <Layout title="Edge content proxy" user={pageUser(c)}>
        <h1>Cachely</h1>
        <p>
          A multi-tenant edge proxy for headless CMS APIs and media hosts: cached,
          credential-injecting API proxy, asset proxy with URL rewriting, AI transforms and
          experiments.
        </p>
        <p>
          {pageUser(c) ? <a href="/dashboard">Go to your tenants</a> : (
            <>
              <a href="/signup">Create an account</a> or <a href="/login">log in</a>.
            </>
          )}
        </p>
      </Layout>,
    ));
  app.route("/", authPages());
  app.route("/", oauthPages());
  app.route("/", dashboardPages());
  app.route("/", invitePages());
  app.route("/", passwordResetPages());
  app.route("/", verifyEmailPages());
  app.route("/", formBridge(dispatch));
  app.route("/", apiReferencePages(async () => (await loadApi()).apiDeclarations()));
  app.route("/", adminPages());
  app.route("/", accountPages());
  app.onError((err, c) => pageError(c, err));
  return app;
}
