/** The page an invite mail links to: `/invites/accept?token=...`. */
import { Hono } from "hono";
import type { AppEnv } from "../../lib/http/env.ts";
import { Layout } from "../../components/Layout.tsx";
import { ApiForm, Hidden } from "../../components/ApiForm.tsx";
import { page, pageUser } from "./render.tsx";

export function invitePages(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/invites/accept", (c) => {
    const token = c.req.query("token") ?? "";
    const user = pageUser(c);
    const here = `/invites/accept?token=${encodeURIComponent(token)}`;
    return page(
      c,
      <Layout title="Accept invite" user={user}>
        <h1>Accept invite</h1>
        {token === "" ? <p class="error">This link has no invite token.</p> : user
          ? (
            <>
              <p>
                You are signed in as {user.email}. Invites are for the address they were sent to.
              </p>
              <ApiForm
                api="/api/invites/accept"
                submit="Accept invite"
                busy={`Joining\u2026`}
                done="You joined {tenant} as {role}"
                next="/dashboard/{tenant}"
                label="Accept invite"
              >
                <Hidden name="token" value={token} />
              </ApiForm>
            </>
          )
          : (
            <p>
              <a href={`/login?next=${encodeURIComponent(here)}`}>Log in</a> or{" "}
              <a href={`/signup?next=${encodeURIComponent(here)}`}>sign up</a>{" "}
              with the address the invite was sent to, then accept it here.
            </p>
          )}
      </Layout>,
    );
  });
  return app;
}
