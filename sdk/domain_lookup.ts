/**
 * `customDomain: true` with no domain in the environment: the tenant's verified custom domain,
 * asked of its host's `GET /~domain` (edge/domain.ts) at the first request. Asked once per
 * tenant host per process (the promise is remembered); a failure, a null answer or no answer
 * within DOMAIN_LOOKUP_MS leaves the tenant host in use, and nothing is thrown to the caller.
 */
import { isHostname } from "./providers.ts";

/** How long the first request waits for the answer at most, in milliseconds. */
const DOMAIN_LOOKUP_MS = 3000;

/** Tenant host origin -> the origin of its verified domain (null: keep the tenant host). */
const lookups = new Map<string, Promise<string | null>>();

/** `https://<verified domain>` of the tenant at `tenantOrigin`, or null; asked once. */
function verifiedDomainOrigin(
  tenantOrigin: string,
  f: typeof fetch,
): Promise<string | null> {
  let found = lookups.get(tenantOrigin);
  if (!found) lookups.set(tenantOrigin, found = ask(tenantOrigin, f));
  return found;
}

async function ask(tenantOrigin: string, f: typeof fetch): Promise<string | null> {
  const abort = typeof AbortController === "function" ? new AbortController() : null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => {
      abort?.abort();
      resolve(null);
    }, DOMAIN_LOOKUP_MS);
  });
  const read = async (): Promise<string | null> => {
    const res = await f(`${tenantOrigin}/~domain`, {
      headers: { accept: "application/json" },
      ...(abort ? { signal: abort.signal } : {}),
    });
    if (!res.ok) {
      await res.body?.cancel();
      return null;
    }
    const domain = ((await res.json()) as { domain?: unknown } | null)?.domain;
    if (typeof domain !== "string") return null;
    const d = domain.trim().toLowerCase();
    return isHostname(d) ? `https://${d}` : null;
  };
  try {
    return await Promise.race([read().catch(() => null), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A client's tenant origin: the tenant host, then, when `learn` (customDomain: true with no
 * domain in the environment), the verified domain once `ready()` has resolved it; `rewriters`
 * (asset rewriters made for the old origin) are cleared then.
 */
export class LearntOrigin {
  current: string;
  private pending: Promise<void> | null = null;
  constructor(
    readonly host: string,
    private learn: boolean,
    private f: typeof fetch,
    private rewriters: { clear(): void },
  ) {
    this.current = host;
  }

  /** Null when the origin is known; else the first lookup (shared), which never rejects. */
  ready(): Promise<void> | null {
    if (!this.learn) return null;
    return this.pending ??= verifiedDomainOrigin(this.host, this.f).then((origin) => {
      this.learn = false;
      if (!origin) return;
      this.current = origin;
      this.rewriters.clear();
    });
  }

  /** True for the tenant host and the learnt origin (URLs already on the proxy). */
  owns(origin: string): boolean {
    return origin === this.current || origin === this.host;
  }

  /** `f` with a `tenantOrigin` getter reading the current origin. */
  exposedOn<F extends object>(f: F): F & { readonly tenantOrigin: string } {
    const get = () => this.current;
    return Object.defineProperty(f, "tenantOrigin", { get, enumerable: true }) as F & {
      readonly tenantOrigin: string;
    };
  }
}
