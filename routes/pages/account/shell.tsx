/**
 * One page of the user menu (/account/*): signed-in only (401 -> log-in and back), the
 * menu as section navigation, the heading.
 */
import type { Context } from "hono";
import type { ComponentChildren } from "preact";
import type { AppEnv, AuthContext } from "../../../lib/http/env.ts";
import type { Services } from "../../../lib/services.ts";
import { requireAuth } from "../../../lib/http/auth.ts";
import { Layout } from "../../../components/Layout.tsx";
import { USER_MENU } from "../../../components/nav.ts";
import { page, pageUser } from "../render.tsx";

export type AccountCtx = { c: Context<AppEnv>; s: Services; auth: AuthContext };

export async function renderAccountPage(
  c: Context<AppEnv>,
  title: string,
  body: (a: AccountCtx) => Promise<ComponentChildren> | ComponentChildren,
) {
  const auth = requireAuth(c);
  const content = await body({ c, s: c.get("services"), auth });
  const items = USER_MENU.map((i) => ({ ...i, current: i.href === c.req.path }));
  return page(
    c,
    <Layout title={title} user={pageUser(c)} side={{ title: "Your account", items }}>
      <h1>{title}</h1>
      {content}
    </Layout>,
  );
}
