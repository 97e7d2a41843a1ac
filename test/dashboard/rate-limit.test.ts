import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createDashboard,
  type DashboardDeps,
  DEFAULT_RATE_LIMITS,
  dashboardAccess,
  memoryKv,
  type RateLimits,
} from "../../src/dashboard/index.ts";
import { PROXY_PEER } from "../../src/dashboard/rate-limit.ts";
import { ADMIN, client, type DashboardHarness, startDashboard } from "../support/dashboard.ts";
import { serveFetch } from "../support/http.ts";

/**
 * The login entry points' rate limit over real HTTP: per client address (the socket's, or from a
 * loopback proxy the last X-Forwarded-For entry), per token prefix, and on failed logins; a 429 page
 * that says when to retry, with Retry-After; counted in Redis (two instances share the counts) or
 * in memory.
 */

let h: DashboardHarness;
const servers: { close(): Promise<void> }[] = [];
beforeAll(async () => {
  h = await startDashboard();
});
afterAll(async () => {
  for (const s of servers) await s.close();
  await h?.close();
});

const WIDE: RateLimits = { ...DEFAULT_RATE_LIMITS, perIp: 1000, perTokenPrefix: 1000 };

let run = 0;
/** A back office of its own (its own counters under a fresh prefix) with these limits. */
async function office(limits: Partial<RateLimits>, over: Partial<DashboardDeps> = {}) {
  const prefix = `${h.deps.prefix}rl${++run}:`;
  const deps: DashboardDeps = { ...h.deps, prefix, rateLimits: { ...WIDE, ...limits }, ...over };
  const app = createDashboard(deps);
  const server = await serveFetch((req, env) => app.fetch(req, env));
  servers.push(server);
  return { url: server.url, prefix, access: dashboardAccess(deps) };
}

const token = (start = "") => (start + randomBytes(32).toString("base64url")).slice(0, 43);
const from = (ip: string) => ({ "x-forwarded-for": `198.51.100.1, ${ip}` });

describe("whose X-Forwarded-For is believed", () => {
  it("this host's and private networks' proxies, nobody else", () => {
    for (const a of [
      "127.0.0.1",
      "::ffff:127.0.0.1",
      "::1",
      "10.1.2.3",
      "172.18.0.5",
      "192.168.1.1",
      "fd12::1",
    ]) {
      expect(PROXY_PEER.test(a), a).toBe(true);
    }
    for (const a of ["8.8.8.8", "::ffff:8.8.8.8", "172.32.0.1", "2001:db8::1", "100.64.0.1"]) {
      expect(PROXY_PEER.test(a), a).toBe(false);
    }
  });
});

describe("the login entry points' rate limit", () => {
  it("refuses an address past its hits in the window with a 429 that says when to retry; another address goes on; the next window is open", async () => {
    const o = await office({ perIp: 3, failuresPerIp: 1000 });
    const c = client(o.url);
    for (let i = 0; i < 3; i++) {
      expect((await c.get(`/dashboard/login/${token()}`, from("203.0.113.5"))).status).toBe(410);
    }
    const refused = await c.get(`/dashboard/login/${token()}`, from("203.0.113.5"));
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    const text = await refused.text();
    expect(text).toMatch(
      /Too many login attempts\. Try again after \d\d:\d\d:\d\d UTC \(in \d+ seconds\)/,
    );
    const until = new Date(Math.floor(h.clock.now / 60_000) * 60_000 + 60_000);
    expect(text).toContain(until.toISOString().slice(11, 19));
    // The POST counts too (and is refused the same way).
    expect((await c.post(`/dashboard/login/${token()}`, from("203.0.113.5"))).status).toBe(429);
    // Another client (the proxy's last entry differs) is served.
    expect((await c.get(`/dashboard/login/${token()}`, from("203.0.113.6"))).status).toBe(410);
    // A forged first entry does not make a new client: only the proxy's last one counts.
    const forged = { "x-forwarded-for": "10.9.9.9, 203.0.113.5" };
    expect((await c.get(`/dashboard/login/${token()}`, forged)).status).toBe(429);
    h.clock.now += 60_000;
    expect((await c.get(`/dashboard/login/${token()}`, from("203.0.113.5"))).status).toBe(410);
  });

  it("refuses hits on tokens that start alike, from any address; a link with another start is served", async () => {
    const o = await office({ perTokenPrefix: 2, failuresPerIp: 1000 });
    const c = client(o.url);
    expect((await c.get(`/dashboard/login/${token("AbCdEfGh")}`, from("203.0.113.7"))).status).toBe(
      410,
    );
    expect((await c.get(`/dashboard/login/${token("AbCdEfGh")}`, from("203.0.113.8"))).status).toBe(
      410,
    );
    const refused = await c.get(`/dashboard/login/${token("AbCdEfGh")}`, from("203.0.113.9"));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    const link = (await o.access.issueLink(ADMIN))!;
    const path = new URL(link.url).pathname;
    expect((await c.get(path, from("203.0.113.9"))).status).toBe(200);
  });

  it("after the failed logins of an address, refuses even a good link from it; another address logs in", async () => {
    // At the start of a failures window (15 minutes, fixed): what is left of it is known, whatever
    // the wall clock says when the test runs.
    const WINDOW = 15 * 60_000;
    h.clock.now = Math.ceil(h.clock.now / WINDOW) * WINDOW + 1_000;
    const o = await office({ failuresPerIp: 3 });
    const c = client(o.url);
    const bad = from("203.0.113.20");
    expect((await c.get(`/dashboard/login/${token()}`, bad)).status).toBe(410);
    expect((await c.post(`/dashboard/login/${token()}`, bad)).status).toBe(410);
    expect((await c.get("/dashboard/login/not-a-token", bad)).status).toBe(404);
    const good = new URL((await o.access.issueLink(ADMIN))!.url).pathname;
    const refused = await c.post(good, bad);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain("Try again after");
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(60);
    expect(wait).toBeLessThanOrEqual(15 * 60);
    // The refused POST did not spend the link: another address logs in with it.
    const ok = client(o.url);
    expect((await ok.post(good, from("203.0.113.21"))).status).toBe(303);
    // A spent link is a failure too (410), from a browser without the session it made (the
    // browser it logged in goes to the back office instead: review s24-a, N4).
    const other = from("203.0.113.21");
    expect((await client(o.url).post(good, other)).status).toBe(410);
  });

  it("keeps the counts in Redis, with an end, so two instances share them", async () => {
    const limits = { perIp: 2, failuresPerIp: 1000 };
    const a = await office(limits);
    const prefix = a.prefix;
    const b = await office(limits, { prefix });
    expect(
      (await client(a.url).get(`/dashboard/login/${token()}`, from("203.0.113.30"))).status,
    ).toBe(410);
    expect(
      (await client(b.url).get(`/dashboard/login/${token()}`, from("203.0.113.30"))).status,
    ).toBe(410);
    expect(
      (await client(a.url).get(`/dashboard/login/${token()}`, from("203.0.113.30"))).status,
    ).toBe(429);
    const keys = await h.redis.keys(`${prefix}dash:rate:ip:*`);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toContain("203.0.113.30");
    expect(Number(await h.redis.get(keys[0]!))).toBe(3);
    const ttl = await h.redis.pttl(keys[0]!);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it("counts in memory without Redis", async () => {
    const o = await office({ perIp: 1, failuresPerIp: 1000 }, { kv: memoryKv() });
    const c = client(o.url);
    expect((await c.get(`/dashboard/login/${token()}`)).status).toBe(410);
    expect((await c.get(`/dashboard/login/${token()}`)).status).toBe(429);
    expect(await h.redis.keys(`${o.prefix}dash:rate:*`)).toEqual([]);
  });
});
