import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DashboardKv } from "../../src/dashboard/index.ts";
import {
  ADMIN,
  AGENT,
  client,
  type DashboardHarness,
  startDashboard,
} from "../support/dashboard.ts";
import { loggedLines } from "../support/log-lines.ts";

/**
 * A login or logout whose audit write fails (review s32-backoffice, "Left"). Before: a login
 * answered 500 after its session was made and its cookie and the spent link's session mark given,
 * so a second click on "Log in" got in, with no audit line at all; a logout answered 500 after
 * ending the session. Now: no audit line, no session (503, the link put back, nothing handed out);
 * a logout always ends the session, the failure logged. Real Redis over HTTP on loopback; the
 * fault is the back office's kv client's list write, as test/dashboard/done-then-failed.test.ts.
 * A refused login ("denied") or a role gone ("revoked") whose line fails answered a bare 500 (left
 * s33, 1): the refusal stands (403), the sessions end, the line's failure is logged at error.
 */

let h: DashboardHarness;
beforeAll(async () => {
  h = await startDashboard();
});
afterAll(async () => {
  await h?.close();
});
beforeEach(async () => {
  const keys = await h.redis.keys(`${h.deps.prefix}dash:rate:*`);
  if (keys.length > 0) await h.redis.del(...keys);
});

const auditActions = async (userId: number): Promise<string[]> =>
  (await h.redis.lrange(`${h.deps.prefix}dash:audit`, 0, 500))
    .map((l) => JSON.parse(l) as { action: string; userId: number })
    .filter((e) => e.userId === userId)
    .map((e) => e.action);

/** Runs `act` with the audit list's write failing and the back office's log captured. */
async function withAuditFailing<T>(act: () => Promise<T>) {
  const kv = h.deps.kv as DashboardKv;
  const [realPush, realLogger] = [kv.lpush, h.deps.logger];
  const log = loggedLines({ secrets: [] });
  kv.lpush = async () => {
    throw new Error("audit write failed");
  };
  h.deps.logger = log.logger;
  try {
    return { result: await act(), lines: log.lines };
  } finally {
    kv.lpush = realPush;
    h.deps.logger = realLogger;
  }
}

describe("a login whose audit line cannot be written", () => {
  it("hands out no session (503, try again), and the same link logs in once the log works", async () => {
    const link = (await h.access.issueLink(ADMIN))!;
    const path = new URL(link.url).pathname;
    const c = client(h.url);
    const before = await auditActions(ADMIN);
    const { result, lines } = await withAuditFailing(async () => {
      const first = await c.post(path);
      // The second click on "Log in", the log still failing: no way in either.
      const second = await c.post(path);
      return { first, second, text: await first.text() };
    });
    expect(result.first.status).toBe(503);
    expect(result.text).toContain("Not logged in");
    expect(result.text).toContain(`<form method="post" action="${path}">`);
    expect(result.first.headers.getSetCookie()).toEqual([]);
    expect(result.second.status).toBe(503);
    expect(c.cookie).toBeUndefined();
    // No session of the person is left in Redis (none was handed out).
    const hashes = await h.redis.smembers(`${h.deps.prefix}dash:user:${ADMIN}:sessions`);
    for (const hash of hashes) {
      expect(await h.redis.exists(`${h.deps.prefix}dash:session:${hash}`)).toBe(0);
    }
    expect((await c.get("/dashboard")).status).toBe(303);
    const refused = lines.filter(
      (l) => l.msg === "a login was refused: its audit entry could not be written",
    );
    expect(refused).toHaveLength(2);
    expect(refused[0]).toMatchObject({ level: 50, userId: ADMIN, linkBack: true });
    // The log works again: the link, never spent by a login, logs in once, with its line.
    const ok = await c.post(path);
    expect(ok.status).toBe(303);
    expect(c.cookie).toBeDefined();
    expect((await c.get("/dashboard")).status).toBe(200);
    expect(await auditActions(ADMIN)).toEqual(["login", ...before]);
  });
});

describe("a logout whose audit line cannot be written", () => {
  it("ends the session all the same (303 to 'logged out'), the failure logged", async () => {
    const link = (await h.access.issueLink(ADMIN))!;
    const c = client(h.url);
    expect((await c.post(new URL(link.url).pathname)).status).toBe(303);
    const held = c.cookie;
    const { result: out, lines } = await withAuditFailing(() => c.post("/dashboard/logout"));
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/dashboard/login?out=1");
    expect(c.cookie).toBeUndefined();
    // The old cookie, sent again, is worth nothing: the session is over on the server too.
    const again = client(h.url);
    again.cookie = held;
    expect((await again.get("/dashboard")).status).toBe(303);
    const logged = lines.filter(
      (l) => l.msg === "an action was done but its audit entry was not written",
    );
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 50, action: "logout", userId: ADMIN });
  });
});

describe("a refusal whose audit line cannot be written", () => {
  it("a login without a role is still refused (403, no session), the failure logged", async () => {
    const link = (await h.access.issueLink(AGENT))!;
    const c = client(h.url);
    h.roles.agents.delete(AGENT);
    try {
      const { result, lines } = await withAuditFailing(async () => {
        const res = await c.post(new URL(link.url).pathname);
        return { res, text: await res.text() };
      });
      expect(result.res.status).toBe(403);
      expect(result.text).toContain("You have no access to the back office.");
      expect(c.cookie).toBeUndefined();
      const logged = lines.filter(
        (l) => l.msg === "an action was done but its audit entry was not written",
      );
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ level: 50, action: "denied", userId: AGENT });
    } finally {
      h.roles.agents.add(AGENT);
    }
  });

  it("a role gone ends every session all the same (403, not 500), the failure logged", async () => {
    const a = client(h.url);
    expect((await a.post(new URL((await h.access.issueLink(AGENT))!.url).pathname)).status).toBe(
      303,
    );
    const b = client(h.url);
    expect((await b.post(new URL((await h.access.issueLink(AGENT))!.url).pathname)).status).toBe(
      303,
    );
    h.roles.agents.delete(AGENT);
    try {
      const { result, lines } = await withAuditFailing(async () => {
        const res = await a.get("/dashboard");
        return { res, text: await res.text() };
      });
      expect(result.res.status).toBe(403);
      expect(result.text).toContain("You no longer have access.");
      expect(a.cookie).toBeUndefined();
      const logged = lines.filter(
        (l) => l.msg === "an action was done but its audit entry was not written",
      );
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ level: 50, action: "revoked", userId: AGENT });
    } finally {
      h.roles.agents.add(AGENT);
    }
    // The other browser's session went too: with the role back it is worth nothing.
    expect((await b.get("/dashboard")).status).toBe(303);
  });
});

describe("a role gone whose sessions cannot be ended", () => {
  it("shows nothing (503, try again), and ends them on the next request", async () => {
    const a = client(h.url);
    expect((await a.post(new URL((await h.access.issueLink(AGENT))!.url).pathname)).status).toBe(
      303,
    );
    const kv = h.deps.kv as DashboardKv;
    const [realMembers, realLogger] = [kv.smembers, h.deps.logger];
    const log = loggedLines({ secrets: [] });
    h.roles.agents.delete(AGENT);
    try {
      kv.smembers = async () => {
        throw new Error("sessions not read");
      };
      h.deps.logger = log.logger;
      const res = await a.get("/dashboard");
      expect(res.status).toBe(503);
      expect(await res.text()).toContain("could not check your access just now");
      expect(log.lines.filter((l) => l.level === 50)).toMatchObject([
        { userId: AGENT, msg: "a person's role is gone but their sessions could not be ended" },
      ]);
      kv.smembers = realMembers;
      h.deps.logger = realLogger;
      expect((await a.get("/dashboard")).status).toBe(403);
    } finally {
      kv.smembers = realMembers;
      h.deps.logger = realLogger;
      h.roles.agents.add(AGENT);
    }
    expect((await a.get("/dashboard")).status).toBe(303);
  });
});
