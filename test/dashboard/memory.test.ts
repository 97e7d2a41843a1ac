import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_TIMES } from "../../src/dashboard/index.ts";
import { ADMIN, client, type DashboardHarness, startDashboard } from "../support/dashboard.ts";

/**
 * Local mode without Redis keeps the back office's links and sessions in memory (memoryKv): the
 * same rules hold there. The stores the pages read are still the Redis ones here.
 */

let h: DashboardHarness;
beforeAll(async () => {
  h = await startDashboard({ memory: true });
});
afterAll(async () => {
  await h?.close();
});

describe("the back office on memory", () => {
  it("spends a link once, on POST only, and keeps nothing in Redis", async () => {
    const path = new URL((await h.access.issueLink(ADMIN))!.url).pathname;
    const c = client(h.url);
    expect((await c.get(path)).status).toBe(200);
    expect((await c.get(path)).status).toBe(200);
    const both = await Promise.all([c.post(path), client(h.url).post(path)]);
    expect(both.map((r) => r.status).sort()).toEqual([303, 410]);
    expect((await c.get("/dashboard")).status).toBe(200);
    expect(await h.redis.keys(`${h.deps.prefix}dash:*`)).toEqual([]);
  });

  it("ends sessions by idle time, logout and revokeAll", async () => {
    const login = async () => {
      const c = client(h.url);
      await c.post(new URL((await h.access.issueLink(ADMIN))!.url).pathname);
      return c;
    };
    const idle = await login();
    h.clock.now += DEFAULT_TIMES.idleMs;
    try {
      expect((await idle.get("/dashboard")).status).toBe(303);
    } finally {
      h.clock.now -= DEFAULT_TIMES.idleMs;
    }
    const out = await login();
    expect((await out.post("/dashboard/logout")).status).toBe(303);
    const a = await login();
    const b = await login();
    expect(await h.access.revokeAll(ADMIN)).toBeGreaterThanOrEqual(2);
    expect((await a.get("/dashboard")).status).toBe(303);
    expect((await b.get("/dashboard")).status).toBe(303);
    const audit = await login();
    const text = await (await audit.get("/dashboard/audit")).text();
    expect(text).toContain("logout");
  });
});
