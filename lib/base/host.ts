/** Classifies a Host header: tenant host, tenant preview host, or anything else. */
type HostClass =
  | { kind: "tenant"; slug: string }
  | { kind: "preview"; slug: string }
  | { kind: "other"; hostname: string };

/** `<slug>.<proxyDomain>` -> tenant, `<slug>.preview.<proxyDomain>` -> preview. */
export function classifyHost(hostHeader: string | null, proxyDomain: string): HostClass {
  const host = (hostHeader ?? "").trim().toLowerCase().replace(/\.$/, "");
  const suffix = `.${proxyDomain}`;
  if (host.endsWith(suffix)) {
    const label = host.slice(0, -suffix.length);
    const m = /^([a-z0-9-]{3,63})(\.preview)?$/.exec(label);
    if (m) return m[2] ? { kind: "preview", slug: m[1] } : { kind: "tenant", slug: m[1] };
  }
  return { kind: "other", hostname: host.replace(/:\d+$/, "") };
}
