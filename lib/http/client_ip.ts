/**
 * The client's IP: the connection's address, unless a trusted proxy header is
 * configured (TRUSTED_PROXY_IP_HEADER), in which case its first entry is used.
 */
export function clientIp(
  req: Request,
  remoteAddr: Deno.Addr | undefined,
  trustedHeader: string | undefined,
): string {
  if (trustedHeader) {
    const v = req.headers.get(trustedHeader);
    const first = v?.split(",")[0]?.trim();
    if (first) return first.slice(0, 64);
  }
  if (remoteAddr && "hostname" in remoteAddr) return remoteAddr.hostname;
  return "unknown";
}
