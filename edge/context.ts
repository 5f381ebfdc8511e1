/**
 * The per-edge context (built once in createEdge) and the per-request context
 * the proxies share.
 */
import type { EdgeDeps, EdgeTarget, RequestInfo } from "./types.ts";
import type { ThroughContext } from "./cache/through.ts";
import type { EdgeSnapshot } from "../lib/kv/snapshot.ts";
import type { ProviderContext } from "../lib/providers/mod.ts";
import type { Rewriter } from "../sdk/rewrite.ts";
import { rewriterFor } from "../lib/rewrite/mod.ts";

export type EdgeContext = {
  deps: EdgeDeps;
  through: ThroughContext;
  providers: ProviderContext;
};

/** One request on the edge. The rewriter is compiled (memoised) only when a miss needs it. */
export class RequestContext {
  private rewriter: Rewriter | null = null;

  constructor(
    readonly req: Request,
    readonly method: string,
    readonly target: EdgeTarget,
    readonly info: RequestInfo,
    readonly snap: EdgeSnapshot,
    /** Origin the visitor used (scheme of PUBLIC_URL, host of the request). */
    readonly tenantOrigin: string,
    readonly path: string,
    /** Raw query without `?`. */
    readonly query: string,
    private providers: ProviderContext,
  ) {}

  /** Rewrites provider asset URLs in `text` to tenantOrigin. */
  rewrite(text: string): string {
    this.rewriter ??= rewriterFor({
      snapshot: this.snap,
      tenantOrigin: this.tenantOrigin,
      providerContext: this.providers,
    });
    return this.rewriter(text);
  }
}
