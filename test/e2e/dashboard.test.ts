import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, linkIn } from "../support/dashboard.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";

/**
 * The back office as `npm start` runs it in local mode (DASHBOARD on by default, memory stores):
 * the playground's admin (3001) and agent (2001) send /dashboard and get a link that logs them in
 * with their role; a customer is refused. With Redis the links and sessions are in Redis. With
 * DASHBOARD=0 there is no back office.
 */

const ADMIN = 3001;
const AGENT = 2001;

describe.each([
  ["memory", false],
  ["redis", true],
])("the back office wired (%s)", (_name, redis) => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({ redis });
  });
  afterAll(async () => {
    await ts?.cleanup();
  });

  it("an admin's /dashboard link logs in as admin, once", async () => {
    const reply = await ts.user(ADMIN).say("/dashboard", /back-office login link/);
    const url = linkIn(reply.text);
    expect(url?.startsWith(ts.system.url)).toBe(true);
    const c = client(ts.system.url);
    const path = new URL(url!).pathname;
    expect((await c.get(path)).status).toBe(200);
    expect((await c.post(path)).status).toBe(303);
    expect(await (await c.get("/dashboard")).text()).toContain(`admin ${ADMIN}`);
    expect((await c.get("/dashboard/books")).status).toBe(200);
    expect((await client(ts.system.url).post(path)).status).toBe(410);
  });

  it("an agent's link logs in as agent; admin pages are 403", async () => {
    const reply = await ts.user(AGENT).say("/dashboard", /back-office login link/);
    const c = client(ts.system.url);
    expect((await c.post(new URL(linkIn(reply.text)!).pathname)).status).toBe(303);
    expect(await (await c.get("/dashboard")).text()).toContain("Your float");
    expect((await c.get("/dashboard/audit")).status).toBe(403);
  });

  it("a customer gets no link", async () => {
    const reply = await ts.user(1001).say("/dashboard");
    expect(reply.text).toBe("The back office is for admins and agents.");
  });
});

describe("DASHBOARD=0", () => {
  let ts: TestSystem;
  beforeAll(async () => {
    ts = await startTestSystem({ env: { DASHBOARD: "0" } });
  });
  afterAll(async () => {
    await ts?.cleanup();
  });

  it("serves no back office and sends no link", async () => {
    expect((await fetch(`${ts.system.url}/dashboard/login`)).status).toBe(404);
    const reply = await ts.user(ADMIN).say("/dashboard");
    expect(reply.text).not.toContain("/dashboard/login/");
  });
});
