/**
 * KV values every Deno runtime of a fleet reads. Deno KV stores a value as V8 serialization
 * unless it is a Uint8Array or a Deno.KvU64, and an older V8 refuses what a newer one wrote:
 * during a rolling upgrade (or a rollback) 2.5 instances could not read a snapshot, a session
 * or a counter 2.9 instances wrote (lib/kv/undecodable.ts). So this wrapper stores every other
 * value as bytes of its own: a short marker, then the UTF-8 of a string as is, or of JSON for
 * anything else (Dates and bigints tagged so they come back as they went in). Reads decode
 * those bytes and pass anything else through (a KvU64, a value written before this format),
 * so KV files written before keep working. Atomic sums, max and min stay on KvU64.
 */

const MARK = [0xca, 0xc4, 0x01]; // "cachely, portable value, version 1"
const STRING = 0x53; // 'S': the UTF-8 of a string
const JSON_VALUE = 0x4a; // 'J': the UTF-8 of JSON

const enc = new TextEncoder();
const dec = new TextDecoder();

function isEncoded(b: Uint8Array): boolean {
  return b.length > MARK.length && b[0] === MARK[0] && b[1] === MARK[1] && b[2] === MARK[2];
}

function pack(tag: number, text: string): Uint8Array {
  const body = enc.encode(text);
  const out = new Uint8Array(MARK.length + 1 + body.length);
  out.set(MARK);
  out[MARK.length] = tag;
  out.set(body, MARK.length + 1);
  return out;
}

function replacer(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const raw = this[key];
  if (raw instanceof Date) return { $date: raw.getTime() };
  if (typeof raw === "bigint") return { $bigint: raw.toString() };
  if (raw instanceof Uint8Array) return { $bytes: Array.from(raw) };
  return value;
}

function reviver(_key: string, value: unknown): unknown {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const v = value as Record<string, unknown>;
    const keys = Object.keys(v);
    if (keys.length === 1) {
      if (typeof v.$date === "number") return new Date(v.$date);
      if (typeof v.$bigint === "string") return BigInt(v.$bigint);
      if (Array.isArray(v.$bytes)) return new Uint8Array(v.$bytes as number[]);
    }
  }
  return value;
}

/** The form `value` is stored in (module comment). */
export function encodeValue(value: unknown): unknown {
  if (value instanceof Deno.KvU64 || value instanceof Uint8Array) return value;
  if (typeof value === "string") return pack(STRING, value);
  const json = JSON.stringify(value, replacer);
  return json === undefined ? value : pack(JSON_VALUE, json); // undefined: no JSON form
}

/** What `encodeValue` was given, from what KV holds. */
export function decodeValue(stored: unknown): unknown {
  if (!(stored instanceof Uint8Array) || !isEncoded(stored)) return stored;
  const text = dec.decode(stored.subarray(MARK.length + 1));
  return stored[MARK.length] === STRING ? text : JSON.parse(text, reviver);
}

function decodeEntry<T>(e: Deno.KvEntryMaybe<T>): Deno.KvEntryMaybe<T> {
  return e.versionstamp === null ? e : { ...e, value: decodeValue(e.value) as T };
}

/** `op` whose `set` encodes; every chained call keeps returning the wrapper. */
function portableAtomic(op: Deno.AtomicOperation): Deno.AtomicOperation {
  const wrapper: Deno.AtomicOperation = new Proxy(op, {
    get(target, prop) {
      if (prop === "set") {
        return (key: Deno.KvKey, value: unknown, o?: { expireIn?: number }) => {
          target.set(key, encodeValue(value), o);
          return wrapper;
        };
      }
      const v = Reflect.get(target, prop);
      if (typeof v !== "function") return v;
      return (...args: unknown[]) => {
        const r = v.apply(target, args);
        return r === target ? wrapper : r;
      };
    },
  });
  return wrapper;
}

function portableList<T>(it: Deno.KvListIterator<T>): Deno.KvListIterator<T> {
  const wrapped = {
    get cursor() {
      return it.cursor;
    },
    async next() {
      const r = await it.next();
      return r.done ? r : { done: false, value: decodeEntry(r.value) as Deno.KvEntry<T> };
    },
    [Symbol.asyncIterator]() {
      return wrapped;
    },
  };
  return wrapped as unknown as Deno.KvListIterator<T>;
}

/** `kv` storing and reading values in the portable form (module comment). */
export function portableKv(kv: Deno.Kv): Deno.Kv {
  const methods: Record<string, unknown> = {
    get: async (key: Deno.KvKey, o?: { consistency?: Deno.KvConsistencyLevel }) =>
      decodeEntry(await kv.get(key, o)),
    getMany: async (keys: Deno.KvKey[], o?: { consistency?: Deno.KvConsistencyLevel }) =>
      (await kv.getMany(keys, o)).map(decodeEntry),
    set: (key: Deno.KvKey, value: unknown, o?: { expireIn?: number }) =>
      kv.set(key, encodeValue(value), o),
    list: (selector: Deno.KvListSelector, o?: Deno.KvListOptions) =>
      portableList(kv.list(selector, o)),
    atomic: () => portableAtomic(kv.atomic()),
    watch: (keys: Deno.KvKey[], o?: { raw?: boolean }) =>
      kv.watch(keys, o).pipeThrough(
        new TransformStream<Deno.KvEntryMaybe<unknown>[], Deno.KvEntryMaybe<unknown>[]>({
          transform: (entries, ctl) => ctl.enqueue(entries.map(decodeEntry)),
        }),
      ),
  };
  return new Proxy(kv, {
    get(target, prop) {
      if (typeof prop === "string" && prop in methods) return methods[prop];
      const v = Reflect.get(target, prop);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}
