import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Phone } from "../../src/accounts/index.ts";
import { createMemoryAccounts } from "../../src/accounts/store.ts";
import { createDashboard, type DashboardDeps } from "../../src/dashboard/index.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import {
  ADMIN,
  AGENT,
  type DashboardHarness,
  loggedIn,
  startDashboard,
} from "../support/dashboard.ts";
import { serveFetch } from "../support/http.ts";

/**
 * The list of all customers (admins): 50 a page, newest registration first, Next and Previous,
 * each row with phone, name, channel, balance and the blocked flag, linking to the person's page;
 * a bad page number gets the page again with the reason; names are escaped; agents get 403. The
 * accounts' index by first registration: written with the profile (Redis) or derived (memory), and
 * profiles kept before it existed join it on the first read.
 */

let h: DashboardHarness;
let office: { url: string; access: DashboardHarness["access"] };
const closers: (() => Promise<void>)[] = [];
beforeAll(async () => {
  h = await startDashboard();
  const deps: DashboardDeps = {
    ...h.deps,
    people: { ...h.deps.people, joined: (offset, limit) => h.accounts.joined(offset, limit) },
  };
  const app = createDashboard(deps);
  const server = await serveFetch((req, env) => app.fetch(req, env));
  closers.push(() => server.close());
  office = { url: server.url, access: h.access };
});
afterAll(async () => {
  for (const c of closers) await c();
  await h?.close();
});

const BASE = 1_700_000_000_000;
const FIRST = 880_000;
const COUNT = 52;

describe("the list of all customers", () => {
  it("shows 50 a page, newest registration first, with Next to the rest", async () => {
    for (let i = 0; i < COUNT; i++) {
      const id = FIRST + i;
      await h.accounts.register(id, `97798000${String(id).slice(-5)}` as Phone);
      await h.accounts.putProfile(id, { name: `Customer ${i}`, channel: "telegram" }, BASE + i);
    }
    // A later share keeps the first registration time (and its place in the list).
    await h.accounts.putProfile(
      FIRST,
      { name: "Customer 0 <b>again</b>", channel: "telegram" },
      BASE + 999,
    );
    await h.blocked.block({ userId: FIRST + 51, reason: "abuse", by: ADMIN, at: BASE });

    const c = await loggedIn(office, ADMIN);
    const first = await c.get("/dashboard/customers");
    expect(first.status).toBe(200);
    // The list follows the blocked list, which links the blocked one too.
    const one = (await first.text()).split('id="all"')[1] ?? "";
    const ids = [...one.matchAll(/href="\/dashboard\/customers\/(\d+)">\1</g)].map((m) =>
      Number(m[1]),
    );
    const listed = ids.filter((id) => id >= FIRST && id < FIRST + COUNT);
    expect(listed).toHaveLength(50);
    expect(listed[0]).toBe(FIRST + 51);
    expect(listed[49]).toBe(FIRST + 2);
    expect(one).toContain("+977 9800080051");
    expect(one).toMatch(/Customer 51<\/td><td>telegram<\/td>/);
    expect(one).toMatch(/880051<\/a> \(Telegram\)<\/td>.*?<td>blocked<\/td>/s);
    expect(one).toContain('href="/dashboard/customers?page=2"');
    expect(one).not.toContain("Previous");

    const two =
      (await (await c.get("/dashboard/customers?page=2")).text()).split('id="all"')[1] ?? "";
    const rest = [...two.matchAll(/href="\/dashboard\/customers\/(\d+)">\1</g)].map((m) =>
      Number(m[1]),
    );
    expect(rest).toEqual([FIRST + 1, FIRST]);
    expect(two).toContain("Customer 0 &lt;b&gt;again&lt;/b&gt;");
    expect(two).not.toContain("<b>again</b>");
    expect(two).toContain('href="/dashboard/customers?page=1"');
    expect(two).not.toContain("page=3");
  });

  it("answers a bad page number with the page and the reason, never a 500", async () => {
    const c = await loggedIn(office, ADMIN);
    for (const [q, why] of [
      ["0", "the first page is 1"],
      ["abc", "the page is a number"],
      ["1.5", "the page is a whole number"],
      ["99999999", "at most page 10000"],
    ] as const) {
      const res = await c.get(`/dashboard/customers?page=${q}`);
      expect(res.status).toBe(400);
      const text = await res.text();
      expect(text).toContain(why);
      expect(text).toContain('name="q"');
    }
    const far = await c.get("/dashboard/customers?page=9000");
    expect(far.status).toBe(200);
    expect(await far.text()).toContain("Nothing yet.");
  });

  it("is refused to an agent (403)", async () => {
    const c = await loggedIn(office, AGENT);
    expect((await c.get("/dashboard/customers")).status).toBe(403);
    expect((await c.get("/dashboard/customers?page=2")).status).toBe(403);
  });

  it("indexes profiles kept before the index existed on the first read", async () => {
    const k = keyspace(h.deps.prefix);
    const old = { name: "Older", channel: "telegram", firstAt: BASE - 5, at: BASE - 5 };
    await h.redis.hset(k.accountProfiles, "770001", JSON.stringify(old));
    expect(await h.redis.zscore(k.accountJoined, "770001")).toBeNull();
    const all = await h.accounts.joined(0, 1000);
    expect(all.at(-1)).toBe(770001);
    expect(await h.redis.zscore(k.accountJoined, "770001")).toBe(String(BASE - 5));
  });

  it("in memory: the same order", async () => {
    const m = createMemoryAccounts();
    await m.putProfile(1, { name: "a", channel: "telegram" }, 10);
    await m.putProfile(2, { name: "b", channel: "telegram" }, 30);
    await m.putProfile(3, { name: "c", channel: "telegram" }, 20);
    await m.putProfile(1, { name: "a again", channel: "telegram" }, 40);
    expect(await m.joined(0, 10)).toEqual([2, 3, 1]);
    expect(await m.joined(1, 1)).toEqual([3]);
  });
});
