/** The page shell: head, navigation, and the island bundle. */
import type { ComponentChildren } from "preact";

export type LayoutProps = {
  title: string;
  user?: { email: string; isAdmin: boolean } | null;
  children: ComponentChildren;
};

export function Layout({ title, user, children }: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} · Cachely`}</title>
        <link rel="stylesheet" href="/static/app.css" />
        <script type="module" src="/static/build/islands.js" defer></script>
      </head>
      <body>
        <header class="top">
          <a class="brand" href="/">Cachely</a>
          <nav>
            {user
              ? (
                <>
                  <a href="/dashboard">Tenants</a>
                  <span class="muted">{user.email}{user.isAdmin ? " (admin)" : ""}</span>
                  <form method="post" action="/logout" class="inline">
                    <button type="submit" class="link">Log out</button>
                  </form>
                </>
              )
              : (
                <>
                  <a href="/login">Log in</a>
                  <a href="/signup">Sign up</a>
                </>
              )}
          </nav>
        </header>
        <main>{children}</main>
      </body>
    </html>
  );
}
