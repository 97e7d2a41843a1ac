import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCatalog } from "../../src/catalog/index.ts";
import {
  createCatalogSync,
  createProviderClient,
  memoryListingCache,
  type ProviderClient,
  ProviderUnavailableError,
  redisListingCache,
} from "../../src/provider/index.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { testRedis } from "../support/redis.ts";
import { call, eventually, type RunningSandbox, startSandbox, TOKEN } from "../support/sandbox.ts";

/**
 * The catalogue's offer kept in step with the provider (src/provider/catalog-sync.ts): the real
 * sandbox over loopback, the cache in the real Redis.
 */

let run: RunningSandbox;
let client: ProviderClient;
const r = testRedis("catalog-sync");
const cacheKey = keyspace(r.prefix).catalogListing;

beforeAll(async () => {
  run = await startSandbox({ rateLimitPerSecond: 0 });
  client = createProviderClient({ baseUrl: run.base, token: TOKEN, maxRetries: 0 });
});
afterAll(async () => {
  await client.close();
  await run.close();
  await r.cleanup();
});

function captureLog() {
  const lines: Array<{ level: "info" | "warn"; msg: string; obj: object }> = [];
  return {
    lines,
    logger: {
      info: (obj: object, msg: string) => lines.push({ level: "info", msg, obj }),
      warn: (obj: object, msg: string) => lines.push({ level: "warn", msg, obj }),
    },
  };
}

/** The sandbox admin API, over HTTP as a person at the provider's dashboard would use it. */
async function admin(action: "withdraw" | "restore", operatorId: number) {
  const res = await call(
    run.base,
    "POST",
    `/_sandbox/operators/${operatorId}/${action}`,
    {},
    {
      "x-admin-token": TOKEN,
    },
  );
  expect(res.status).toBe(200);
}

const dthIds = (catalog: ReturnType<typeof createCatalog>) =>
  catalog.byCategory("dth").map((o) => o.id);

describe("catalogue sync against the sandbox", () => {
  it("lists both regions at start, and a withdrawn operator leaves the offer at the next scheduled refresh", async () => {
    const catalog = createCatalog();
    const log = captureLog();
    const sync = createCatalogSync({
      catalog,
      provider: client,
      cache: redisListingCache(r.redis, cacheKey),
      logger: log.logger,
      now: Date.now,
      refreshMs: 1000,
    });
    try {
      await sync.start();
      const listing = catalog.listing();
      expect(listing?.regions.np?.operators).toContainEqual({ value: "37", label: "SIM TV" });
      expect(listing?.regions.in?.operators).toContainEqual({ value: "221", label: "Tata Play" });
      expect(listing?.regions.np?.operatorTypes).toContainEqual({
        value: "7",
        label: "Khanepani (Water)",
      });
      expect(dthIds(catalog)).toContain(37);
      // Cached in Redis as it was fetched.
      expect(JSON.parse((await r.redis.get(cacheKey)) ?? "null")).toEqual(listing);

      await admin("withdraw", 37);
      // No refresh called by hand: the schedule takes it out.
      await eventually(() => expect(dthIds(catalog)).not.toContain(37), 5000);
      expect(catalog.isOffered(37)).toBe(false);
      expect(catalog.operator(37)?.name).toBe("SIM TV");
      expect(log.lines).toContainEqual(
        expect.objectContaining({
          msg: "catalogue: offer changed",
          obj: expect.objectContaining({ withdrawn: [37] }),
        }),
      );
      const cached = JSON.parse((await r.redis.get(cacheKey)) ?? "null");
      expect(cached.regions.np.operators.map((o: { value: string }) => o.value)).not.toContain(
        "37",
      );

      await admin("restore", 37);
      await eventually(() => expect(dthIds(catalog)).toContain(37), 5000);
    } finally {
      await sync.stop();
      await admin("restore", 37);
    }
  });

  it("falls back to the copy cached in Redis when the provider is down at start", async () => {
    // A first process lists while SIM TV is withdrawn, and caches that.
    await admin("withdraw", 37);
    const first = createCatalog();
    const cache = redisListingCache(r.redis, cacheKey);
    const s1 = createCatalogSync({
      catalog: first,
      provider: client,
      cache,
      logger: captureLog().logger,
      now: Date.now,
      refreshMs: 0,
    });
    await s1.start();
    await s1.stop();
    await admin("restore", 37);
    expect(dthIds(first)).not.toContain(37);

    // A second process starts while the provider cannot be reached.
    const dead = createProviderClient({
      baseUrl: "http://127.0.0.1:1/api/v1",
      token: TOKEN,
      maxRetries: 0,
    });
    const catalog = createCatalog();
    const log = captureLog();
    const sync = createCatalogSync({
      catalog,
      provider: dead,
      cache: redisListingCache(r.connect(), cacheKey),
      logger: log.logger,
      now: Date.now,
      refreshMs: 0,
    });
    try {
      await sync.start();
      expect(catalog.listing()).toEqual(first.listing());
      expect(dthIds(catalog)).not.toContain(37);
      expect(log.lines.map((l) => l.msg)).toContain(
        "catalogue: provider lookups failed at start; using the cached listing",
      );
    } finally {
      await sync.stop();
      await dead.close();
    }
  });

  it("with nothing cached and the provider down, offers the rules alone and says so", async () => {
    const dead = createProviderClient({
      baseUrl: "http://127.0.0.1:1/api/v1",
      token: TOKEN,
      maxRetries: 0,
    });
    const catalog = createCatalog();
    const log = captureLog();
    const sync = createCatalogSync({
      catalog,
      provider: dead,
      cache: redisListingCache(r.redis, `${r.prefix}nothing-here`),
      logger: log.logger,
      now: Date.now,
      refreshMs: 0,
    });
    try {
      await sync.start();
      expect(catalog.listing()).toBeNull();
      expect(catalog.byCategory("dth")).toHaveLength(11);
      expect(log.lines).toContainEqual(
        expect.objectContaining({
          level: "warn",
          msg: "catalogue: provider lookups failed at start and nothing is cached; offering the catalogue's rules alone",
        }),
      );
    } finally {
      await sync.stop();
      await dead.close();
    }
  });

  it("keeps the offer it has when a refresh fails or a region lists nothing", async () => {
    let mode: "up" | "down" | "empty-np" = "up";
    const flaky: Pick<ProviderClient, "operators" | "operatorTypes"> = {
      async operators(region) {
        if (mode === "down") throw new ProviderUnavailableError({ endpoint: "GET /operators" });
        if (mode === "empty-np" && region === "np") return [];
        return client.operators(region);
      },
      operatorTypes: (region) => client.operatorTypes(region),
    };
    const catalog = createCatalog();
    const sync = createCatalogSync({
      catalog,
      provider: flaky,
      cache: memoryListingCache(),
      logger: captureLog().logger,
      now: Date.now,
      refreshMs: 0,
    });
    await admin("withdraw", 37);
    try {
      await sync.start();
      expect(dthIds(catalog)).not.toContain(37);
      await admin("restore", 37);
      // Down: the withdrawn operator stays withdrawn (no fall back to the rules).
      mode = "down";
      expect(await sync.refresh()).toBe(false);
      expect(dthIds(catalog)).not.toContain(37);
      // Nepal lists nothing (a fault, not every operator withdrawn): Nepal keeps its last listing,
      // India is refreshed.
      mode = "empty-np";
      await admin("withdraw", 221);
      expect(await sync.refresh()).toBe(true);
      expect(dthIds(catalog)).not.toContain(37);
      expect(catalog.isOffered(221)).toBe(false);
      mode = "up";
      expect(await sync.refresh()).toBe(true);
      expect(dthIds(catalog)).toContain(37);
    } finally {
      await sync.stop();
      await admin("restore", 37);
      await admin("restore", 221);
    }
  });
});

describe("the sandbox's withdraw control", () => {
  it("takes the operator out of the lookups and refuses it everywhere, until restored", async () => {
    await admin("withdraw", 38);
    try {
      expect((await client.operators()).map((o) => o.value)).not.toContain("38");
      await expect(
        client.listDthPackages({
          operatorId: 38,
          operatorTypeId: 2,
          connectionNo: "1234567",
          referenceNo: "9001",
        }),
      ).rejects.toThrow(/Unknown operator_id 38/);
      const res = await call(
        run.base,
        "POST",
        "/_sandbox/operators/12345/withdraw",
        {},
        {
          "x-admin-token": TOKEN,
        },
      );
      expect(res.status).toBe(404);
      const bad = await call(
        run.base,
        "POST",
        "/_sandbox/operators/abc/withdraw",
        {},
        {
          "x-admin-token": TOKEN,
        },
      );
      expect(bad.status).toBe(400);
    } finally {
      await admin("restore", 38);
    }
    expect((await client.operators()).map((o) => o.value)).toContain("38");
  });
});
