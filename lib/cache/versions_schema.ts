/** The response shape of `CacheVersions` (lib/cache/versions.ts), answered by several routes. */
import { z } from "zod";

export const cacheVersionsSchema = z.strictObject({
  apiCacheVersion: z.number().int(),
  assetCacheVersion: z.number().int(),
  htmlCacheVersion: z.number().int(),
});
