/**
 * The page shell: head (one stylesheet, one module script carrying the CSP nonce), the top
 * bar with the user menu, an optional sidebar (tenant areas, admin sections), the aria-live
 * announcement region and `#content`, which enhanced forms re-fetch and swap after an action.
 */
import type { ComponentChildren } from "preact";
import { useContext } from "preact/hooks";
import { PageContext } from "./page_context.ts";
import { safeNext } from "../lib/http/next.ts";
import { type NavItem, USER_MENU } from "./nav.ts";
import { Notice } from "../islands/Notice.tsx";
import { VerifyEmailBanner } from "./VerifyEmailBanner.tsx";

/** `emailVerified: false` shows the verification banner; absent means nothing to say. */
export type PageUser = {
  email: string;
  isAdmin: boolean;
  emailVerified?: boolean;
  /** False when the server has no MAIL_TRANSPORT_URL: no link can be mailed. */
  mailConfigured?: boolean;
  /** OAuth sign-in providers this server offers (the banner warns of a takeover only then). */
  oauthProviders?: string[];
  /** The banner was hidden for this browser session. */
  verifyBannerDismissed?: boolean;
};

export type LayoutProps = {
  title: string;
  user?: PageUser | null;
  /** Sidebar navigation; without it the page is one column. */
  side?: { title: string; titleHref?: string; items: NavItem[] };
  children: ComponentChildren;
};

/**
 * The `?next=` of the top bar's Log-in and Sign-up links: back to this page (an invite link
 * keeps its token), or on the log-in and sign-up pages their own `next`; none from pages
 * there is no point returning to.
 * It passes safeNext() here too, so a foreign or control-laden `next` is never echoed into
 * the page (the pages that read it check it again).
 */
const NO_COMING_BACK = new Set(["/", "/forgot-password", "/reset-password"]);

function comeBack(path: string): string {
  const url = new URL(path, "http://x");
  const next = url.pathname === "/login" || url.pathname === "/signup"
    ? url.searchParams.get("next")
    : NO_COMING_BACK.has(url.pathname)
    ? null
    : path;
  // Any origin does: only the path check matters, and the link is relative.
  return next ? `?next=${encodeURIComponent(safeNext(next, "http://x"))}` : "";
}

export function Layout({ title, user, side, children }: LayoutProps) {
  const ctx = useContext(PageContext);
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} · Cachely`}</title>
        {/* An empty inline icon: browsers otherwise request /favicon.ico (a 404) on every page. */}
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="/static/app.css" />
        <script type="module" src="/static/build/islands.js" nonce={ctx.nonce}></script>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="top">
          <a class="brand" href="/">Cachely</a>
          <nav aria-label="Account">
            {user ? <UserMenu user={user} /> : (
              <>
                <a href={`/login${comeBack(ctx.path)}`}>Log in</a>
                <a href={`/signup${comeBack(ctx.path)}`}>Sign up</a>
              </>
            )}
          </nav>
        </header>
        <div class={side ? "shell" : "shell bare"}>
          {side && (
            <nav class="side" aria-label={side.title}>
              <p class="title">
                {side.titleHref ? <a href={side.titleHref}>{side.title}</a> : side.title}
              </p>
              <ul>
                {side.items.map((i) => (
                  <li key={i.href}>
                    <a href={i.href} aria-current={i.current ? "page" : undefined}>{i.label}</a>
                  </li>
                ))}
              </ul>
            </nav>
          )}
          <main id="main" tabIndex={-1}>
            <div id="announce" class="announce" aria-live="polite">
              {ctx.flash && <Notice outcome={ctx.flash} />}
            </div>
            {user?.emailVerified === false && !user.verifyBannerDismissed && (
              <VerifyEmailBanner
                email={user.email}
                canMail={user.mailConfigured !== false}
                operator={user.isAdmin}
                oauth={user.oauthProviders ?? []}
                back={ctx.path}
              />
            )}
            <div id="content">{children}</div>
          </main>
        </div>
      </body>
    </html>
  );
}

function UserMenu({ user }: { user: PageUser }) {
  return (
    <>
      <a href="/dashboard">Tenants</a>
      {user.isAdmin && <a href="/admin">Admin</a>}
      <details class="usermenu">
        <summary>
          <span class="visually-hidden">Account menu for</span> {user.email}
        </summary>
        <ul>
          {USER_MENU.map((i) => (
            <li key={i.href}>
              <a href={i.href}>{i.label}</a>
            </li>
          ))}
          <li>
            <form method="post" action="/logout">
              <button type="submit" class="link">Log out</button>
            </form>
          </li>
        </ul>
      </details>
    </>
  );
}
