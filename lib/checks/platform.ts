/**
 * Guesses the site's platform from its HTML and response headers. The first rule
 * with a matching marker wins, so frameworks come before the hosted builders whose
 * pages may embed them; nothing matching is `generic`.
 */

export const PLATFORMS = [
  "nextjs",
  "nuxt",
  "gatsby",
  "remix",
  "sveltekit",
  "astro",
  "wordpress",
  "shopify",
  "webflow",
  "squarespace",
  "wix",
  "generic",
] as const;
export type Platform = typeof PLATFORMS[number];

type Rule = { platform: Platform; html: RegExp; header?: [string, RegExp] };

const RULES: Rule[] = [
  {
    platform: "nextjs",
    html: /id=["']?__NEXT_DATA__|\/_next\/static\/|self\.__next_f|content=["']Next\.js/i,
    header: ["x-powered-by", /next\.js/i],
  },
  { platform: "nuxt", html: /window\.__NUXT__|id=["']?__NUXT_DATA__|\/_nuxt\/|data-n-head/i },
  { platform: "gatsby", html: /id=["']?___gatsby|\/page-data\/app-data\.json|content=["']Gatsby/i },
  { platform: "remix", html: /window\.__remixContext|__remixManifest|data-remix-run/i },
  { platform: "sveltekit", html: /__sveltekit_|\/_app\/immutable\/|data-sveltekit-/i },
  { platform: "astro", html: /<astro-island|\/_astro\/|content=["']Astro/i },
  {
    platform: "wordpress",
    html: /\/wp-content\/|\/wp-includes\/|content=["']WordPress/i,
    header: ["link", /api\.w\.org/i],
  },
  { platform: "shopify", html: /cdn\.shopify\.com|Shopify\.theme/i, header: ["x-shopid", /./] },
  { platform: "webflow", html: /data-wf-page|data-wf-site|content=["']Webflow/i },
  { platform: "squarespace", html: /static1\.squarespace\.com|Static\.SQUARESPACE_CONTEXT/i },
  {
    platform: "wix",
    html: /static\.wixstatic\.com|static\.parastorage\.com|content=["']Wix\.com/i,
    header: ["x-wix-request-id", /./],
  },
];

export function detectPlatform(html: string, headers: Headers): Platform {
  for (const r of RULES) {
    if (r.html.test(html)) return r.platform;
    if (r.header && r.header[1].test(headers.get(r.header[0]) ?? "")) return r.platform;
  }
  return "generic";
}
