import { afterAll, beforeAll } from "vitest";

/**
 * Something a file (or describe) starts before its tests and stops after, e.g. the whole system or
 * the back office. What it returns stands for the started thing: read it only inside hooks and
 * tests (before beforeAll ran there is nothing to read, and `what` says so).
 */
export function useStarted<T extends object>(
  what: string,
  start: () => Promise<T>,
  stop: (started: T) => Promise<void>,
): T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    if (started) await stop(started);
  });
  return new Proxy({} as T, {
    get(_target, key) {
      if (!started) throw new Error(`${what} is read before beforeAll started it`);
      return Reflect.get(started, key);
    },
  });
}
