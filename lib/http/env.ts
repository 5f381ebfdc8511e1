/** The one typed Hono environment shared by every API route. */
import type { TokenScope } from "../db/schema/core.ts";
import type { Services } from "../services.ts";
import type { Instance } from "../instance.ts";
import type { User } from "../users/mod.ts";
import type { TenantAccess } from "../tenants/access.ts";

export type AuthContext = {
  user: User;
  via: "session" | "token";
  isAdmin: boolean;
  /** A personal access token's scopes (via "token" only). */
  scopes?: TokenScope[];
  sessionToken?: string;
};

export type AppEnv = {
  Variables: {
    services: Services;
    /** This process's running edge and loops (lib/instance.ts). */
    instance: Instance;
    auth: AuthContext | null;
    clientIp: string;
    /** Set by requireTenant (lib/tenants/access.ts) once per request. */
    tenantAccess?: TenantAccess;
  };
};
