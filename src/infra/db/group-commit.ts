// Group commit: work items that become ready while a group is being written form the next
// group, written by one transaction or statement instead of one each. Used for the synchronous
// settlements, webhook acceptances, queued settlements and webhook attempts: each of those decides
// how a group is written and what a member the group cannot take falls back to. groupRead below
// does the same for reads by key.
import { isDatabaseUnavailable } from './unavailable.ts';

export interface Member<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * Returns `submit`: its promise settles when the item's group has been written. `writeGroup`
 * receives the members of one group (at most `maxGroup`, in arrival order) and must settle every
 * one of them; groups are written one at a time. `onDrained`: every item submitted so far is
 * written (keyedGroupCommit drops the key's queue then).
 */
export function groupCommit<T, R>(
  maxGroup: number,
  writeGroup: (members: Array<Member<T, R>>) => Promise<void>,
  onDrained?: () => void,
): (item: T) => Promise<R> {
  let queue: Array<Member<T, R>> = [];
  let running = false;

  async function drain(): Promise<void> {
    // The database did not answer a group: the members that queued behind it would each wait out
    // the same timeout, one group after another (found by CI: a hung PostgreSQL answered one
    // account's concurrent calls in 4 s instead of 2, their rate-limit checks taking turns). They
    // fail with its error at once; the next item submitted starts afresh.
    let unavailable: unknown;
    try {
      while (queue.length > 0) {
        const group = queue.slice(0, maxGroup);
        queue = queue.slice(group.length);
        if (unavailable !== undefined) {
          for (const member of group) member.reject(unavailable);
          continue;
        }
        // A writer that throws fails its own members only; the next group is written regardless.
        await writeGroup(group).catch((error: unknown) => {
          for (const member of group) member.reject(error);
          if (isDatabaseUnavailable(error)) unavailable = error;
        });
      }
    } finally {
      running = false;
      onDrained?.();
    }
  }

  return (item) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      // Items submitted in the same turn of the event loop join the first group.
      if (!running) {
        running = true;
        setImmediate(() => void drain());
      }
    });
}

/**
 * The same grouping for reads by key: lookups that arrive while a group is being read are
 * answered by the next single statement (`WHERE id = ANY(...)`) instead of one statement each.
 * On the embedded database every statement costs ~1 ms however small, and the webhook path read
 * each request on its own: once in its fetch job, once in each delivery. `readMany` returns one
 * value (or undefined) per key, in the order of the keys; a key asked for twice is read once.
 */
export function groupRead<K, V>(
  maxGroup: number,
  keyOf: (key: K) => string,
  readMany: (keys: K[]) => Promise<Map<string, V>>,
): (key: K) => Promise<V | undefined> {
  return groupCommit<K, V | undefined>(maxGroup, async (members) => {
    const unique = new Map<string, K>();
    for (const { item } of members) unique.set(keyOf(item), item);
    const found = await readMany([...unique.values()]);
    for (const member of members) member.resolve(found.get(keyOf(member.item)));
  });
}

/**
 * groupCommit with a queue per key: items of one key that become ready while that key's group is
 * being written form its next group; different keys' groups are written side by side. A key's
 * queue is dropped once it is empty, so a key used once costs nothing afterwards. Used by the
 * PostgreSQL rate limiter: one account's concurrent checks took turns for its lock one by one.
 */
export function keyedGroupCommit<T, R>(
  maxGroup: number,
  writeGroup: (key: string, members: Array<Member<T, R>>) => Promise<void>,
): (key: string, item: T) => Promise<R> {
  const queues = new Map<string, (item: T) => Promise<R>>();
  return (key, item) => {
    let submit = queues.get(key);
    if (!submit) {
      submit = groupCommit<T, R>(
        maxGroup,
        (members) => writeGroup(key, members),
        () => queues.delete(key),
      );
      queues.set(key, submit);
    }
    return submit(item);
  };
}
