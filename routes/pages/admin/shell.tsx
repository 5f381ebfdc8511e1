/**
 * One master-admin console page: the master-admin check (401 -> log-in and back, 403 -> the
 * refusal page), the section navigation and the heading. Section files export an
 * `AdminSection` body; mod.tsx mounts them under /admin.
 */
import type { Context } from "hono";
import type { ComponentChildren } from "preact";
import type { AppEnv } from "../../../lib/http/env.ts";
import type { Services } from "../../../lib/services.ts";
import { requireAuth, requireMasterAdmin } from "../../../lib/http/auth.ts";
import { Layout } from "../../../components/Layout.tsx";
import { page, pageUser } from "../render.tsx";

export const ADMIN_SECTIONS = [
  { path: "", label: "Overview" },
  { path: "users", label: "Users" },
  { path: "usage", label: "Usage" },
  { path: "logs", label: "Logs" },
  { path: "platform", label: "Platform" },
] as const;
export type AdminSectionPath = typeof ADMIN_SECTIONS[number]["path"];

/** A section body that also names its page. */
export type Titled = { title: string; content: ComponentChildren };

export type AdminCtx = { c: Context<AppEnv>; s: Services; adminUserId: string };

export async function renderAdminPage(
  c: Context<AppEnv>,
  section: AdminSectionPath,
  title: string,
  body: (
    a: AdminCtx,
  ) => Promise<ComponentChildren | Titled> | ComponentChildren | Titled,
  status = 200,
) {
  const who = requireAuth(c); // anonymous: log in and come back
  if (!who.isAdmin) return forbiddenPage(c, who.user.email);
  const auth = requireMasterAdmin(c);
  const out = await body({ c, s: c.get("services"), adminUserId: auth.user.id });
  // A section may name its page after what it loaded (a user's email).
  const titled = out && typeof out === "object" && "title" in out && "content" in out
    ? out as { title: string; content: ComponentChildren }
    : null;
  if (titled) title = titled.title;
  const content = titled ? titled.content : out;
  const items = ADMIN_SECTIONS.map((x) => ({
    label: x.label,
    href: x.path ? `/admin/${x.path}` : "/admin",
    current: x.path === section,
  }));
  return page(
    c,
    <Layout
      title={`${title} · Admin`}
      user={pageUser(c)}
      side={{ title: "Admin console", titleHref: "/admin", items }}
    >
      <h1>{title}</h1>
      {content}
    </Layout>,
    status,
  );
}

/** The refusal for a signed-in user who is not a master admin: what this is and who may. */
function forbiddenPage(c: Context<AppEnv>, email: string) {
  return page(
    c,
    <Layout title="Not allowed" user={pageUser(c)}>
      <h1>Not allowed</h1>
      <p class="notice error" role="alert" data-error-code="forbidden">
        The admin console is only for master admins, and {email} is not one.
      </p>
      <p>
        Master admins are the addresses in the server's <code>ADMIN_EMAILS</code>{" "}
        setting, once the address is verified (follow the link mailed at sign-up), or accounts
        granted with{" "}
        <code>cachely admin grant</code>. Ask the operator of this installation if you need access.
      </p>
      <p>
        <a href="/dashboard">Back to your tenants</a>
      </p>
    </Layout>,
    403,
  );
}
