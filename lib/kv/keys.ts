/** Every Deno KV key the service uses, built in one place. */
export const kvKeys = {
  /** Head of a tenant's edge snapshot: `{ chunks, hash, builtAt, gen, domains, deleted? }`. */
  snapshotHead: (slug: string) => ["edge", "snapshot", slug] as const,
  snapshotHeads: () => ["edge", "snapshot"] as const,
  /** `{ id }`: the database installation KV was filled from (lib/edge_config/reconcile.ts). */
  installation: () => ["edge", "installation"] as const,
  /** Deno.KvU64: the highest generation any snapshot was written at (atomic max). */
  highWater: () => ["edge", "high_water"] as const,
  snapshotChunk: (slug: string, hash: string, i: number) =>
    ["edge", "snapshot_chunk", slug, hash, i] as const,
  /** Custom domain -> tenant slug, written for active domains only. */
  hostRoute: (hostname: string) => ["edge", "host", hostname] as const,
  hostRoutes: () => ["edge", "host"] as const,
  /** Written with every change log entry: instances poll (or watch) this one small key. */
  changeBell: () => ["edge", "bell"] as const,
  /** A change log entry (lib/kv/changes.ts), wall-clock ms first so a poll lists a window. */
  changeEntry: (at: number, id: string) => ["edge", "change", at, id] as const,
  changeLog: () => ["edge", "change"] as const,
  /** An account's quota state as the edge reads it (lib/kv/quota.ts). */
  quotaSnapshot: (userId: string) => ["edge", "quota", userId] as const,
  /**
   * The instance that refetches one purged answer after a publish (edge/prewarm.ts): tenant,
   * the publish's purge time, the SHA-256 of the cache key; expires on its own.
   */
  prewarmClaim: (tenantId: number, purgeAt: number, keyHash: string) =>
    ["edge", "prewarm", tenantId, purgeAt, keyHash] as const,
  /** The claimer's fresh answer, for the other instances: its head, then its chunks. */
  prewarmCopy: (tenantId: number, purgeAt: number, keyHash: string) =>
    ["edge", "prewarm_copy", tenantId, purgeAt, keyHash] as const,
  /** Every copy of one publish (a list prefix). */
  prewarmCopies: (tenantId: number, purgeAt: number) =>
    ["edge", "prewarm_copy", tenantId, purgeAt] as const,
  prewarmChunk: (tenantId: number, purgeAt: number, keyHash: string, i: number) =>
    ["edge", "prewarm_chunk", tenantId, purgeAt, keyHash, i] as const,
  session: (tokenHash: string) => ["session", tokenHash] as const,
  userSession: (userId: string, tokenHash: string) => ["user_session", userId, tokenHash] as const,
  userSessions: (userId: string) => ["user_session", userId] as const,
  /** A pending password reset by token hash: `{ userId, expiresAt }`. */
  passwordReset: (tokenHash: string) => ["password_reset", tokenHash] as const,
  /** The user's one pending reset (token hash), so a new reset kills the old token. */
  userPasswordReset: (userId: string) => ["user_password_reset", userId] as const,
  /** A pending email verification by token hash: `{ userId, email, expiresAt }`. */
  emailVerification: (tokenHash: string) => ["email_verification", tokenHash] as const,
  /** The user's one pending verification (token hash), so a resend kills the old link. */
  userEmailVerification: (userId: string) => ["user_email_verification", userId] as const,
  /** A pending OAuth sign-in by its state: `{ provider, verifier, next, expiresAt }`. */
  oauthState: (state: string) => ["oauth_state", state] as const,
  /** A form result waiting for the page a no-JS form post is redirected to (one read). */
  flash: (id: string) => ["flash", id] as const,
  rateLimit: (bucket: string, id: string, window: number) =>
    ["ratelimit", bucket, id, window] as const,
};
