/**
 * Values this runtime cannot decode. Deno KV stores most values as V8
 * serialization, and an older V8 refuses what a newer one wrote: Deno 2.5 (Deno Deploy's
 * line) throws `RangeError: could not deserialize value` reading anything Deno 2.9 wrote,
 * so one KV file (or one KV database for a mixed fleet) used by both crashed the older
 * runtime at boot. Everything in KV is derived from the database or short-lived (edge
 * snapshots, markers, the change log, sessions, rate-limit counters), so such a value is
 * treated as missing: a point read (`get`, `getMany`) deletes the key and answers as if it
 * were absent, and whatever the reader does with a missing value (the projector and the
 * reconcile pass rewrite snapshots from the database; a visitor signs in again) rebuilds it
 * in this runtime's format, which the newer runtime reads too. A listing cannot skip one
 * entry it cannot decode (its key is never seen), so each caller of `kv.list` decides with
 * `isUndecodable` (lib/edge_config/reconcile.ts, lib/kv/changes.ts). Logged once per
 * process (docs/operations.md "Runtime version"). Values the program writes now never pass
 * through V8 (lib/kv/portable.ts), so only values written before that form end up here.
 */
import type { Logger } from "../log.ts";

/** The error Deno KV throws when a stored value does not deserialize on this runtime. */
export function isUndecodable(e: unknown): boolean {
  return e instanceof Error && /deseriali[sz]e/i.test(e.message);
}

let warned = false;

/** Logs the first undecodable value this process meets (the rest are the same story). */
export function noteUndecodable(log: Logger | undefined, where: string, key?: Deno.KvKey): void {
  if (warned) return;
  warned = true;
  (log ?? console).warn(
    "KV holds values this Deno runtime cannot decode (written by a newer Deno?): treated as " +
      'missing and rebuilt from the database (docs/operations.md "Runtime version")',
    { where, key: key?.map(String).join("/"), runtime: Deno.version.deno },
  );
}

/** For tests: log the next undecodable value again. */
export function resetUndecodableNotice(): void {
  warned = false;
}

/**
 * `kv` whose `get` and `getMany` treat an undecodable value as missing (module comment):
 * the key is deleted, so a read-check-write after it (`atomic().check(entry)`) overwrites
 * it instead of failing its check forever.
 */
export function decodableKv(kv: Deno.Kv, log?: Logger): Deno.Kv {
  const get = async <T>(key: Deno.KvKey, opts?: { consistency?: Deno.KvConsistencyLevel }) => {
    try {
      return await kv.get<T>(key, opts);
    } catch (e) {
      if (!isUndecodable(e)) throw e;
      noteUndecodable(log, "get", key);
      await kv.delete(key);
      try {
        return await kv.get<T>(key, opts); // a writer may have replaced it meanwhile
      } catch (again) {
        if (!isUndecodable(again)) throw again;
        return { key, value: null, versionstamp: null } as Deno.KvEntryMaybe<T>;
      }
    }
  };
  const getMany = async (keys: Deno.KvKey[], opts?: { consistency?: Deno.KvConsistencyLevel }) => {
    try {
      return await kv.getMany(keys, opts);
    } catch (e) {
      if (!isUndecodable(e)) throw e;
      return await Promise.all(keys.map((k) => get(k, opts)));
    }
  };
  return new Proxy(kv, {
    get(target, prop) {
      if (prop === "get") return get;
      if (prop === "getMany") return getMany;
      const v = Reflect.get(target, prop);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}
