/**
 * A client's tenant origin: the tenant host, then, when `learn` (customDomain: true with no
 * domain in the environment), the verified domain once `ready()` has resolved it; `rewriters`
 * (asset rewriters made for the old origin) are cleared then.
 */
export declare class LearntOrigin {
    readonly host: string;
    private learn;
    private f;
    private rewriters;
    current: string;
    private pending;
    constructor(host: string, learn: boolean, f: typeof fetch, rewriters: {
        clear(): void;
    });
    /** Null when the origin is known; else the first lookup (shared), which never rejects. */
    ready(): Promise<void> | null;
    /** True for the tenant host and the learnt origin (URLs already on the proxy). */
    owns(origin: string): boolean;
    /** `f` with a `tenantOrigin` getter reading the current origin. */
    exposedOn<F extends object>(f: F): F & {
        readonly tenantOrigin: string;
    };
}
