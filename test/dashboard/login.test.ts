import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_TIMES } from "../../src/dashboard/index.ts";
import {
  ADMIN,
  AGENT,
  client,
  type DashboardHarness,
  loggedIn as logIn,
  startDashboard,
} from "../support/dashboard.ts";

/**
 * The back office's login over real Redis and a real HTTP server on loopback: the link from the
 * chat, the confirm page a crawler may fetch, the POST that spends it once, the session cookie and
 * its timeouts (on an injected clock), logout, and roles checked on every request.
 */

let h: DashboardHarness;
beforeAll(async () => {
  h = await startDashboard();
});
afterAll(async () => {
  await h?.close();
});
// Each test starts with no login counted against the loopback address: the file's 410s together
// pass the 20 failures a window allows (the limit itself is tested in rate-limit.test.ts).
beforeEach(async () => {
  const keys = await h.redis.keys(`${h.deps.prefix}dash:rate:*`);
  if (keys.length > 0) await h.redis.del(...keys);
});

const MIN = 60_000;

const loggedIn = (userId: number) => logIn(h, userId);

describe("the login link", () => {
  it("is random, 256 bits, and kept in Redis only as its SHA-256, bound to who asked", async () => {
    const link = await h.access.issueLink(ADMIN);
    expect(link?.url).toMatch(new RegExp(`^${h.url}/dashboard/login/[A-Za-z0-9_-]{43}$`));
    const token = link!.token;
    const keys = await h.redis.keys(`${h.deps.prefix}dash:link:*`);
    const hashed = createHash("sha256").update(token).digest("hex");
    expect(keys).toContain(`${h.deps.prefix}dash:link:${hashed}`);
    for (const k of keys) {
      expect(k).not.toContain(token);
      expect(await h.redis.get(k)).not.toContain(token);
    }
    const stored = JSON.parse((await h.redis.get(`${h.deps.prefix}dash:link:${hashed}`))!);
    expect(stored.userId).toBe(ADMIN);
    const ttl = await h.redis.pttl(`${h.deps.prefix}dash:link:${hashed}`);
    expect(ttl).toBeGreaterThan(9 * MIN);
    expect(ttl).toBeLessThanOrEqual(10 * MIN);
  });

  it("is refused to a customer", async () => {
    expect(await h.access.issueLink(555)).toBeNull();
  });

  it("opens a confirm page on GET without spending it; the POST spends it once", async () => {
    const link = (await h.access.issueLink(ADMIN))!;
    const path = new URL(link.url).pathname;
    const c = client(h.url);
    // A link-preview crawler's GET, twice.
    for (let i = 0; i < 2; i++) {
      const page = await c.get(path, { "user-agent": "TelegramBot (like TwitterBot)" });
      expect(page.status).toBe(200);
      const text = await page.text();
      expect(text).toContain(`<form method="post" action="${path}">`);
      expect(text).toContain(String(ADMIN));
      expect(c.cookie).toBeUndefined();
    }
    const first = await c.post(path);
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe("/dashboard");
    expect(c.cookie).toMatch(/^__Host-dashboard=[A-Za-z0-9_-]{43}$/);
    const home = await c.get("/dashboard");
    expect(home.status).toBe(200);
    expect(await home.text()).toContain(`admin ${ADMIN}`);

    const other = client(h.url);
    const second = await other.post(path);
    expect(second.status).toBe(410);
    expect(other.cookie).toBeUndefined();
    expect((await other.get(path)).status).toBe(410);
  });

  it("two POSTs at once log in once", async () => {
    const path = new URL((await h.access.issueLink(ADMIN))!.url).pathname;
    const results = await Promise.all(Array.from({ length: 5 }, () => client(h.url).post(path)));
    expect(results.map((r) => r.status).sort()).toEqual([303, 410, 410, 410, 410]);
  });

  // Review s24-a, N4: a second click on "Log in" spent nothing and showed only "used already".
  it("a second POST from the browser it logged in goes to the back office; anyone else gets 410 and the hint", async () => {
    const path = new URL((await h.access.issueLink(ADMIN))!.url).pathname;
    const c = client(h.url);
    expect((await c.post(path)).status).toBe(303);
    const cookie = c.cookie;
    for (const again of [await c.post(path), await c.get(path)]) {
      expect(again.status).toBe(303);
      expect(again.headers.get("location")).toBe("/dashboard");
    }
    expect(c.cookie).toBe(cookie);
    expect(await (await c.get("/dashboard")).text()).toContain(`admin ${ADMIN}`);

    // No session (the first answer's cookie lost), or another person's: 410, with the way on.
    const agent = await loggedIn(AGENT);
    for (const other of [client(h.url), agent]) {
      const res = await other.post(path);
      expect(res.status).toBe(410);
      const text = await res.text();
      expect(text).toContain("This link was used already or is too old.");
      expect(text).toContain('If you clicked "Log in" twice, you are perhaps logged in already');
      expect(text).toContain('<a href="/dashboard">the back office</a>, or ask for a new link.');
    }
    expect(await (await agent.get("/dashboard")).text()).toContain(`agent ${AGENT}`);
  });

  // Review s24-e, 2: only the session this link's login made is sent on; the owner's own older
  // session reads "used already", their one sign that someone else used their link.
  it("a link someone else spent: the owner's other session gets 410 and the hint, the spender's goes on", async () => {
    const owner = await loggedIn(ADMIN);
    const path = new URL((await h.access.issueLink(ADMIN))!.url).pathname;
    const other = client(h.url);
    expect((await other.post(path)).status).toBe(303);
    for (const res of [await owner.get(path), await owner.post(path)]) {
      expect(res.status).toBe(410);
      const text = await res.text();
      expect(text).toContain("This link was used already or is too old.");
      expect(text).toContain('If you clicked "Log in" twice, you are perhaps logged in already');
    }
    expect(await (await owner.get("/dashboard")).text()).toContain(`admin ${ADMIN}`);
    const again = await other.get(path);
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toBe("/dashboard");
    // What Redis keeps of the spend: the hash of the session it made, not the person.
    const hash = createHash("sha256").update(path.split("/").at(-1)!).digest("hex");
    const mark = await h.redis.get(`${h.deps.prefix}dash:link:spent:${hash}`);
    const sid = other.cookie!.split("=")[1]!;
    expect(mark).toBe(createHash("sha256").update(sid).digest("hex"));
  });

  it("names the person by the chat the link went to: a WhatsApp id is no Telegram user", async () => {
    const wa = 8_000_000_000_000_000 + 9_779_841_600_001;
    h.roles.admins.add(wa);
    try {
      const tg = await (
        await client(h.url).get(new URL((await h.access.issueLink(ADMIN))!.url).pathname)
      ).text();
      expect(tg).toContain(`You are logging in as <strong>Telegram user ${ADMIN}</strong>.`);
      const link = (await h.access.issueLink(wa))!;
      const text = await (await client(h.url).get(new URL(link.url).pathname)).text();
      expect(text).toContain(`You are logging in as <strong>WhatsApp account ${wa}</strong>.`);
      expect(text).not.toContain("Telegram");
    } finally {
      h.roles.admins.delete(wa);
    }
  });

  it("a newer link ends the older ones: only the newest logs in (review s24-a N3)", async () => {
    const first = new URL((await h.access.issueLink(ADMIN))!.url).pathname;
    const second = new URL((await h.access.issueLink(ADMIN))!.url).pathname;
    // Another person's link is not touched by it.
    const agents = new URL((await h.access.issueLink(AGENT))!.url).pathname;
    const hashOf = (p: string) => createHash("sha256").update(p.split("/").at(-1)!).digest("hex");
    expect(await h.redis.exists(`${h.deps.prefix}dash:link:${hashOf(first)}`)).toBe(0);
    const c = client(h.url);
    expect((await c.get(first)).status).toBe(410);
    expect((await c.post(first)).status).toBe(410);
    expect(c.cookie).toBeUndefined();
    expect((await c.get(second)).status).toBe(200);
    expect((await c.post(second)).status).toBe(303);
    expect(c.cookie).toBeDefined();
    expect((await client(h.url).post(agents)).status).toBe(303);
  });

  it("of five links asked for at once, exactly one logs in", async () => {
    const links = await Promise.all(Array.from({ length: 5 }, () => h.access.issueLink(ADMIN)));
    const results = await Promise.all(
      links.map((l) => client(h.url).post(new URL(l!.url).pathname)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([303, 410, 410, 410, 410]);
  });

  it("is refused after its 10 minutes (the clock, not only Redis's expiry)", async () => {
    const path = new URL((await h.access.issueLink(ADMIN))!.url).pathname;
    h.clock.now += DEFAULT_TIMES.linkMs;
    try {
      const c = client(h.url);
      expect((await c.get(path)).status).toBe(410);
      expect((await c.post(path)).status).toBe(410);
      expect(c.cookie).toBeUndefined();
    } finally {
      h.clock.now -= DEFAULT_TIMES.linkMs;
    }
  });

  it("logs in the person who asked, with that person's role", async () => {
    const c = await loggedIn(AGENT);
    const home = await (await c.get("/dashboard")).text();
    expect(home).toContain(`agent ${AGENT}`);
    expect(home).toContain("Your float");
    expect(home).not.toContain(`admin ${ADMIN}`);
  });

  it("refuses a link whose person lost their role before the POST", async () => {
    const path = new URL((await h.access.issueLink(AGENT))!.url).pathname;
    h.roles.agents.delete(AGENT);
    try {
      const c = client(h.url);
      expect((await c.post(path)).status).toBe(403);
      expect(c.cookie).toBeUndefined();
    } finally {
      h.roles.agents.add(AGENT);
    }
  });

  it("answers a token of the wrong shape with 404 and an unknown one with 410", async () => {
    const c = client(h.url);
    expect((await c.get("/dashboard/login/short")).status).toBe(404);
    expect((await c.post("/dashboard/login/short")).status).toBe(404);
    expect((await c.get(`/dashboard/login/${"A".repeat(43)}`)).status).toBe(410);
    expect((await c.get("/dashboard/login/%E0%A4%A")).status).toBe(404);
  });
});

describe("the session cookie", () => {
  it("is __Host-, Secure, HttpOnly, SameSite=Strict, Path=/, without Domain", async () => {
    const path = new URL((await h.access.issueLink(ADMIN))!.url).pathname;
    const res = await client(h.url).post(path);
    const [line] = res.headers.getSetCookie();
    const attrs = line!.split(";").map((a) => a.trim().toLowerCase());
    expect(line).toMatch(/^__Host-dashboard=/);
    expect(attrs).toContain("secure");
    expect(attrs).toContain("httponly");
    expect(attrs).toContain("samesite=strict");
    expect(attrs).toContain("path=/");
    expect(attrs.some((a) => a.startsWith("domain"))).toBe(false);
    expect(attrs).toContain(`max-age=${DEFAULT_TIMES.absoluteMs / 1000}`);
  });

  it("gets a new id at every login; the browser's old one ends", async () => {
    const c = await loggedIn(ADMIN);
    const old = c.cookie;
    const path = new URL((await h.access.issueLink(ADMIN))!.url).pathname;
    expect((await c.post(path)).status).toBe(303);
    expect(c.cookie).not.toBe(old);
    const stale = client(h.url);
    stale.cookie = old;
    expect((await stale.get("/dashboard")).status).toBe(303);
    expect((await c.get("/dashboard")).status).toBe(200);
  });

  it("ends after the idle timeout", async () => {
    const c = await loggedIn(ADMIN);
    h.clock.now += DEFAULT_TIMES.idleMs - 1000;
    try {
      expect((await c.get("/dashboard")).status).toBe(200);
      h.clock.now += DEFAULT_TIMES.idleMs;
      const res = await c.get("/dashboard");
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/dashboard/login");
      expect(c.cookie).toBeUndefined();
    } finally {
      h.clock.now -= 2 * DEFAULT_TIMES.idleMs - 1000;
    }
  });

  it("ends after the absolute timeout however busy", async () => {
    const c = await loggedIn(ADMIN);
    const start = h.clock.now;
    const step = DEFAULT_TIMES.idleMs - MIN;
    try {
      while (h.clock.now + step - start < DEFAULT_TIMES.absoluteMs) {
        h.clock.now += step;
        expect((await c.get("/dashboard")).status).toBe(200);
      }
      h.clock.now += step;
      expect((await c.get("/dashboard")).status).toBe(303);
    } finally {
      h.clock.now = start;
    }
  });

  it("ends at logout, and the cookie goes", async () => {
    const c = await loggedIn(ADMIN);
    const old = c.cookie;
    const out = await c.post("/dashboard/logout");
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/dashboard/login?out=1");
    expect(c.cookie).toBeUndefined();
    const again = client(h.url);
    again.cookie = old;
    expect((await again.get("/dashboard")).status).toBe(303);
    expect((await again.post("/dashboard/logout")).status).toBe(401);
  });

  it("a garbage or missing cookie is the login help", async () => {
    const c = client(h.url);
    expect((await c.get("/dashboard")).headers.get("location")).toBe("/dashboard/login");
    c.cookie = "__Host-dashboard=%%%; other=1";
    expect((await c.get("/dashboard/books")).status).toBe(303);
    expect((await c.get("/dashboard/login")).status).toBe(200);
  });
});

describe("roles, checked on every request", () => {
  it("a role removed ends every session of that person at once (403), for good", async () => {
    const a = await loggedIn(AGENT);
    const b = await loggedIn(AGENT);
    expect((await a.get("/dashboard")).status).toBe(200);
    h.roles.agents.delete(AGENT);
    try {
      expect((await a.get("/dashboard")).status).toBe(403);
    } finally {
      h.roles.agents.add(AGENT);
    }
    // The other browser's session went too, even with the role back.
    expect((await b.get("/dashboard")).status).toBe(303);
    expect(await h.redis.exists(`${h.deps.prefix}dash:user:${AGENT}:sessions`)).toBe(0);
  });

  it("revokeAll ends every session of a person", async () => {
    const a = await loggedIn(ADMIN);
    expect(await h.access.revokeAll(ADMIN)).toBeGreaterThanOrEqual(1);
    expect((await a.get("/dashboard")).status).toBe(303);
  });

  it("an agent gets 403 for every admin page", async () => {
    const c = await loggedIn(AGENT);
    for (const p of [
      "/dashboard/books",
      "/dashboard/books/journal",
      "/dashboard/books/journal.csv?from=2026-01-01&to=2026-02-01",
      "/dashboard/audit",
    ]) {
      const res = await c.get(p);
      expect(res.status, p).toBe(403);
      expect(await res.text()).toContain("This page is for admins only.");
    }
  });

  // Review s24-a, N5: /me told an admin "This page is for admins only."
  it("an admin's 403 on an agent's page says it is for agents", async () => {
    const res = await (await loggedIn(ADMIN)).get("/dashboard/me");
    expect(res.status).toBe(403);
    const text = await res.text();
    expect(text).toContain("This page is for agents only.");
    expect(text).not.toContain("admins only");
  });
});

describe("unsafe requests and headers", () => {
  it("a POST from another origin is refused and spends nothing", async () => {
    const path = new URL((await h.access.issueLink(ADMIN))!.url).pathname;
    const evil = client(h.url);
    expect((await evil.post(path, { origin: "https://evil.example" })).status).toBe(403);
    expect((await evil.post(path, { origin: "null" })).status).toBe(403);
    expect(evil.cookie).toBeUndefined();
    expect((await client(h.url).post(path)).status).toBe(303);

    const c = await loggedIn(ADMIN);
    expect((await c.post("/dashboard/logout", { origin: "https://evil.example" })).status).toBe(
      403,
    );
    expect((await c.get("/dashboard")).status).toBe(200);
  });

  it("a POST that is not a form (JSON, which csrf does not check) is refused", async () => {
    const c = await loggedIn(ADMIN);
    const res = await c.post("/dashboard/logout", { "content-type": "application/json" }, "{}");
    expect(res.status).toBe(415);
    expect((await c.get("/dashboard")).status).toBe(200);
  });

  it("every page has a CSP without script, and is never cached", async () => {
    for (const res of [
      await client(h.url).get("/dashboard/login"),
      await (await loggedIn(ADMIN)).get("/dashboard"),
    ]) {
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("script-src 'none'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain("unsafe-inline");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.text()).not.toMatch(/<script|\son[a-z]+=/i);
    }
  });

  it("methods and paths nobody serves get 404, never a crash", async () => {
    const c = await loggedIn(ADMIN);
    expect((await c.get("/dashboard/nothing-here")).status).toBe(404);
    const put = await fetch(`${h.url}/dashboard`, { method: "PUT", headers: { origin: h.url } });
    expect(put.status).toBeGreaterThanOrEqual(400);
    expect(put.status).toBeLessThan(500);
  });
});
