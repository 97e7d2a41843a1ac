import { MemorySessionStorage, type StorageAdapter } from "grammy";
import { describe, expect, it } from "vitest";
import { skipUnchangedWrites } from "../../src/bot/session-storage.ts";

/** A store that counts the writes that reach it. */
function counting<T>() {
  const inner = new MemorySessionStorage<T>();
  let writes = 0;
  const store: StorageAdapter<T> = {
    read: (k) => inner.read(k),
    write: (k, v) => {
      writes++;
      return inner.write(k, v);
    },
    delete: (k) => inner.delete(k),
  };
  return { store, writes: () => writes };
}

describe("session storage that skips unchanged writes", () => {
  it("writes a new or changed session, skips an unchanged one, and rewrites it once refreshMs has passed", async () => {
    let clock = 1_000;
    const c = counting<{ n: number }>();
    const s = skipUnchangedWrites(c.store, { refreshMs: 60_000, now: () => clock });
    expect(await s.read("a")).toBeUndefined();
    await s.write("a", { n: 1 }); // new
    expect(c.writes()).toBe(1);
    await s.read("a");
    await s.write("a", { n: 1 }); // unchanged, written a moment ago
    expect(c.writes()).toBe(1);
    await s.read("a");
    await s.write("a", { n: 2 }); // changed
    expect(c.writes()).toBe(2);
    clock += 61_000;
    await s.read("a");
    await s.write("a", { n: 2 }); // unchanged, but the TTL needs renewing
    expect(c.writes()).toBe(3);
    expect(await c.store.read("a")).toEqual({ n: 2 });
  });

  it("never skips the first write after a start, and does not undo another writer's change", async () => {
    const c = counting<{ n: number }>();
    await c.store.write("a", { n: 1 });
    const s = skipUnchangedWrites(c.store, { refreshMs: 60_000 });
    await s.read("a");
    await s.write("a", { n: 1 }); // this process has not written it yet: the TTL is renewed
    expect(c.writes()).toBe(2);
    await s.read("a");
    await c.store.write("a", { n: 5 }); // another instance changes it meanwhile
    await s.write("a", { n: 1 }); // our copy is unchanged: not written back over theirs
    expect(await c.store.read("a")).toEqual({ n: 5 });
  });

  it("does not write a missing session that still equals the initial one (reading nothing gives it back)", async () => {
    const c = counting<{ n?: number }>();
    const s = skipUnchangedWrites(c.store, { refreshMs: 60_000, initial: () => ({}) });
    expect(await s.read("a")).toBeUndefined();
    await s.write("a", {}); // a new user's untouched session
    expect(c.writes()).toBe(0);
    expect(await s.read("a")).toBeUndefined();
    await s.write("a", { n: 1 }); // changed: written
    expect(c.writes()).toBe(1);
    expect(await c.store.read("a")).toEqual({ n: 1 });
    await s.read("a");
    await s.write("a", {}); // back to the initial value over a stored one: written, not skipped
    expect(c.writes()).toBe(2);
    expect(await c.store.read("a")).toEqual({});
  });

  it("forgets the least recently used keys beyond maxKeys (they are written again)", async () => {
    const c = counting<{ n: number }>();
    const s = skipUnchangedWrites(c.store, { refreshMs: 60_000, maxKeys: 2 });
    for (const k of ["a", "b", "c"]) {
      await s.read(k);
      await s.write(k, { n: 1 });
    }
    await s.read("a"); // "a" was forgotten when "c" came
    await s.write("a", { n: 1 });
    expect(c.writes()).toBe(4);
  });
});
