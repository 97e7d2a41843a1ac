import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { memoryUpdateClaims, redisUpdateClaims, type UpdateClaims } from "../../src/bot/dedupe.ts";
import { testRedis } from "../support/orders.ts";

/**
 * ONE contract for the update claims of the redelivery guard, run against the memory adapter and
 * the Redis one. `second()` is another claimer on the same data: another process for Redis; the
 * memory adapter serves one process, so there it is the same claimer.
 *
 * Leases run on the real clock (Redis expires them on its own): every wait here only needs to be
 * at LEAST as long as stated, so a slow machine cannot make a test pass or fail wrongly, except
 * one that stalls for the whole multi-second lease between two adjacent lines.
 */
interface Harness {
  claims: UpdateClaims;
  second(): UpdateClaims;
  close(): Promise<void>;
}

function memoryHarness(): Harness {
  const claims = memoryUpdateClaims({ doneSeconds: 60 });
  return { claims, second: () => claims, close: async () => {} };
}

function redisHarness(): Harness {
  const t = testRedis("claims");
  return {
    claims: redisUpdateClaims(t.redis, t.prefix, { doneSeconds: 60 }),
    second: () => redisUpdateClaims(t.connect(), t.prefix, { doneSeconds: 60 }),
    close: () => t.cleanup(),
  };
}

const adapters: Array<[string, () => Harness]> = [
  ["memory", memoryHarness],
  ["redis", redisHarness],
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const LONG = 10_000;
let nextId = 500_000;

describe.each(adapters)("update claims contract: %s", (_name, makeHarness) => {
  let h: Harness;
  let id: number;
  beforeEach(() => {
    h = makeHarness();
    id = nextId++;
  });
  afterEach(() => h.close());

  it("claims a free update and reports it leased", async () => {
    expect(await h.claims.state(id)).toBe("free");
    expect(await h.claims.claim(id, LONG)).toBe(true);
    expect(await h.claims.state(id)).toBe("leased");
    expect(await h.second().state(id)).toBe("leased");
    // Updates are claimed one by one.
    expect(await h.claims.state(id + 1)).toBe("free");
  });

  it("refuses a second claimer while the lease is live", async () => {
    expect(await h.claims.claim(id, LONG)).toBe(true);
    expect(await h.second().claim(id, LONG)).toBe(false);
    expect(await h.claims.claim(id, LONG)).toBe(false);
  });

  it("lets another claimer take the update over once the lease has lapsed", async () => {
    expect(await h.claims.claim(id, 100)).toBe(true);
    await sleep(250);
    expect(await h.claims.state(id)).toBe("free");
    const other = h.second();
    expect(await other.claim(id, LONG)).toBe(true);
    expect(await h.claims.state(id)).toBe("leased");
  });

  it("keeps the lease live while the holder renews it", async () => {
    expect(await h.claims.claim(id, 200)).toBe(true);
    await h.claims.renew(id, LONG);
    await sleep(400);
    expect(await h.claims.state(id)).toBe("leased");
    expect(await h.second().claim(id, LONG)).toBe(false);
  });

  it("does not revive a lapsed lease on renew", async () => {
    expect(await h.claims.claim(id, 100)).toBe(true);
    await sleep(250);
    await h.claims.renew(id, LONG);
    expect(await h.claims.state(id)).toBe("free");
  });

  it("ignores a done update: no claim, no renewal turns it back into a lease", async () => {
    expect(await h.claims.claim(id, LONG)).toBe(true);
    await h.claims.complete(id);
    expect(await h.claims.state(id)).toBe("done");
    expect(await h.claims.claim(id, LONG)).toBe(false);
    expect(await h.second().claim(id, LONG)).toBe(false);
    await h.claims.renew(id, 100);
    await sleep(250);
    expect(await h.second().state(id)).toBe("done");
  });

  it("keeps done past the lease it replaced", async () => {
    expect(await h.claims.claim(id, 100)).toBe(true);
    await h.claims.complete(id);
    await sleep(250);
    expect(await h.claims.state(id)).toBe("done");
    expect(await h.second().claim(id, LONG)).toBe(false);
  });
});

// The memory adapter serves one process, one holder: only Redis has somebody else's lease.
describe("update claims: redis, several processes", () => {
  it("lets only the holder extend a lease", async () => {
    const h = redisHarness();
    try {
      const id = nextId++;
      expect(await h.claims.claim(id, 200)).toBe(true);
      await h.second().renew(id, LONG);
      await sleep(400);
      expect(await h.claims.state(id)).toBe("free");
    } finally {
      await h.close();
    }
  });
});
