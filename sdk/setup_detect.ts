/**
 * What `cachely setup` reads from a project's package.json: its framework and its
 * CMS package, and what each implies (public env variable prefix, code to change).
 */
import { providerRegistry } from "./provider_registry.ts";
import { PROVIDER_KINDS, type ProviderKind } from "./providers.ts";

export type Framework =
  | "next"
  | "nuxt"
  | "sveltekit"
  | "astro"
  | "remix"
  | "gatsby"
  | "vite"
  | "node"
  | "unknown";

/** Checked in order: the first dependency found decides. */
const FRAMEWORKS: [Framework, string[]][] = [
  ["next", ["next"]],
  ["nuxt", ["nuxt", "nuxt3"]],
  ["sveltekit", ["@sveltejs/kit"]],
  ["astro", ["astro"]],
  ["remix", ["@remix-run/react", "@remix-run/node", "@react-router/dev"]],
  ["gatsby", ["gatsby"]],
  ["vite", ["vite"]],
];

/** How browser code reads public env variables, per framework. */
export const ENV_PREFIX: Record<Framework, string> = {
  next: "NEXT_PUBLIC_",
  nuxt: "NUXT_PUBLIC_",
  sveltekit: "PUBLIC_",
  astro: "PUBLIC_",
  remix: "",
  gatsby: "GATSBY_",
  vite: "VITE_",
  node: "",
  unknown: "",
};

/** Every framework name setup knows (--framework takes only these). */
export const FRAMEWORK_NAMES = Object.keys(ENV_PREFIX) as Framework[];

export function isFramework(name: string): name is Framework {
  return (FRAMEWORK_NAMES as string[]).includes(name);
}

export type PackageJson = {
  name?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

export type Detection = {
  framework: Framework;
  /** The CMS kind, or null when no known package was found. */
  provider: ProviderKind | null;
  /** The dependency that decided the CMS kind. */
  providerPackage: string | null;
};

export function detectProject(pkg: PackageJson): Detection {
  const deps = new Set([
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.devDependencies ?? {}),
    ...Object.keys(pkg.peerDependencies ?? {}),
  ]);
  let framework: Framework = deps.size > 0 ? "node" : "unknown";
  for (const [fw, names] of FRAMEWORKS) {
    if (names.some((n) => deps.has(n))) {
      framework = fw;
      break;
    }
  }
  for (const kind of PROVIDER_KINDS) {
    const hit = providerRegistry[kind].packages.find((p) => deps.has(p));
    if (hit) return { framework, provider: kind, providerPackage: hit };
  }
  return { framework, provider: null, providerPackage: null };
}
