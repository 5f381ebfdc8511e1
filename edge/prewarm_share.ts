/**
 * The prewarm's shared refetching (edge/prewarm.ts). Once the claimer's probe finds the CMS
 * fresh, the rest of its claims are dealt out among the instances waiting for its copies (each
 * registered with the answers it holds), in turn, in the claimer's order (smallest first):
 * every instance refetches a share at once and copies the others', so refetching and copying
 * run on all instances in parallel. The claims move to their new holders in the same atomic
 * operation as the share record, so the origin is still asked once per answer.
 */
import { kvKeys } from "../lib/kv/keys.ts";
import { kvCommit } from "../lib/kv/retry.ts";

/** Key hash → the instance that refetches it. */
type Share = Record<string, string>;

/**
 * Deals `hashes` (the claimer's order) in turn among the claimer (`me`) and the members that
 * hold each answer; an answer no member holds stays with the claimer.
 */
export function deal(hashes: string[], me: string, members: Map<string, Set<string>>): Share {
  const ids = [me, ...[...members.keys()].filter((id) => id !== me).sort()];
  const share: Share = {};
  let turn = 0;
  for (const h of hashes) {
    // The next instance in turn that holds it (the claimer holds them all).
    for (let k = 0; k < ids.length; k++) {
      const id = ids[(turn + k) % ids.length];
      if (id === me || members.get(id)!.has(h)) {
        share[h] = id;
        turn = (turn + k + 1) % ids.length;
        break;
      }
    }
  }
  return share;
}

type Where = { tenantId: number; purgeAt: number };

/** Registers this instance as waiting for copies of `hashes`. */
export async function join(kv: Deno.Kv, w: Where, me: string, hashes: string[], expireIn: number) {
  await kvCommit(() =>
    kv.atomic().set(kvKeys.prewarmMember(w.tenantId, w.purgeAt, me), hashes, { expireIn })
  );
}

/** Where a copy will be, before it is: the instance the claimer dealt the answer to. */
export type Dealt = { to: string };
export const isDealt = (v: unknown): v is Dealt =>
  typeof v === "object" && v !== null && typeof (v as Dealt).to === "string";

/**
 * The claimer's sharing: reads the members, deals `hashes` out and, in one atomic operation,
 * hands the claims over and leaves, where each copy will be, who refetches it. Returns the
 * share (all the claimer's when no other instance waits or KV fails: nothing handed over).
 */
export async function shareOut(
  kv: Deno.Kv,
  w: Where,
  me: string,
  hashes: string[],
  expireIn: number,
): Promise<Share> {
  const alone = Object.fromEntries(hashes.map((h) => [h, me]));
  if (hashes.length < 2) return alone;
  try {
    const members = new Map<string, Set<string>>();
    const prefix = kvKeys.prewarmMembers(w.tenantId, w.purgeAt);
    for await (const e of kv.list<string[]>({ prefix })) {
      members.set(e.key[prefix.length] as string, new Set(e.value));
    }
    const share = deal(hashes, me, members);
    const dealt = Object.entries(share).filter(([, id]) => id !== me);
    if (dealt.length === 0) return alone;
    await kvCommit(() => {
      const op = kv.atomic();
      for (const [h, to] of dealt) {
        op.set(kvKeys.prewarmClaim(w.tenantId, w.purgeAt, h), to, { expireIn });
        op.set(kvKeys.prewarmCopy(w.tenantId, w.purgeAt, h), { to } satisfies Dealt, { expireIn });
      }
      return op;
    });
    return share;
  } catch {
    return alone;
  }
}
