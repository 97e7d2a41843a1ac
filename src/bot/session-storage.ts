import type { StorageAdapter } from "grammy";

/**
 * grammY's session plugin writes the session back after every update it was read in, changed or
 * not: one Redis SET per update for nothing, and in webhook mode behind a load balancer an
 * unchanged copy written late can undo another instance's change. This adapter skips the write of
 * a value equal to what was read, unless this process has not written the key for `refreshMs`: the
 * store's TTL (set on every write) must still be renewed while the user is active.
 *
 * What it remembers is per process and bounded (`maxKeys`, least recently used dropped first); a
 * key it forgot is simply written again.
 */
export interface SkipUnchangedOptions<T> {
  /** Rewrite an unchanged value at least this often, to renew the store's TTL. */
  refreshMs: number;
  /**
   * The session a missing key reads as (the session plugin's `initial`): a key found missing is
   * not written while the session still equals it, since reading nothing gives the same session
   * (a new user's first update wrote `{}` for nothing).
   */
  initial?: () => T;
  maxKeys?: number;
  now?: () => number;
}

interface Seen {
  json: string;
  /** When this process last wrote the key (undefined: not since it started remembering it). */
  writtenAt?: number;
}

export function skipUnchangedWrites<T>(
  inner: StorageAdapter<T>,
  opts: SkipUnchangedOptions<T>,
): StorageAdapter<T> {
  const now = opts.now ?? Date.now;
  const initialJson = opts.initial ? JSON.stringify(opts.initial()) : undefined;
  const maxKeys = opts.maxKeys ?? 50_000;
  const seen = new Map<string, Seen>();
  const remember = (key: string, entry: Seen) => {
    seen.delete(key);
    seen.set(key, entry);
    if (seen.size > maxKeys) {
      const oldest = seen.keys().next().value;
      if (oldest !== undefined) seen.delete(oldest);
    }
  };
  return {
    async read(key) {
      const value = await inner.read(key);
      const before = seen.get(key);
      remember(key, {
        json: JSON.stringify(value ?? null),
        ...(before?.writtenAt === undefined ? {} : { writtenAt: before.writtenAt }),
      });
      return value;
    },
    async write(key, value) {
      const json = JSON.stringify(value ?? null);
      const before = seen.get(key);
      const fresh = before?.writtenAt !== undefined && now() - before.writtenAt < opts.refreshMs;
      if (before && before.json === json && fresh) return;
      if (before?.json === "null" && json === initialJson) return;
      await inner.write(key, value);
      remember(key, { json, writtenAt: now() });
    },
    async delete(key) {
      seen.delete(key);
      await inner.delete(key);
    },
  };
}
