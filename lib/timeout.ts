/**
 * `p`'s outcome, or after `ms` what `late()` returns or throws; the timer is cleared either
 * way, so nothing is left pending (tests' sanitizers, a process that should exit).
 */
export async function orAfter<T, U>(p: Promise<T>, ms: number, late: () => U): Promise<T | U> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<U>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(late());
      } catch (e) {
        reject(e);
      }
    }, ms);
  });
  try {
    return await Promise.race([p, expired]);
  } finally {
    clearTimeout(timer);
  }
}
