/** `https://<verified domain>` of the tenant at `tenantOrigin`, or null; asked once. */
export declare function verifiedDomainOrigin(tenantOrigin: string, f: typeof fetch): Promise<string | null>;
