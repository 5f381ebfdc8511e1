/**
 * Deno Deploy's cache invalidation endpoint, as documented at
 * https://docs.deno.com/deploy/reference/caching ("Cache Invalidation"): a POST of
 * `{"tags": [...]}` (JSON, at most 500 tags) to this URL from inside the deployed
 * application; the documentation shows no authentication (the host is local to the
 * deployment). Responses are tagged with `Cache-Tag` or `Deno-Cache-Tag`.
 */
export const DENO_DEPLOY_INVALIDATE_URL = "http://cache.localhost/invalidate/http";
