import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDashboard, type DashboardDeps } from "../../src/dashboard/index.ts";
import { createHttpApp } from "../../src/http/app.ts";
import { createLogger } from "../../src/logger.ts";
import { ADMIN, client, type DashboardHarness, startDashboard } from "../support/dashboard.ts";
import { serveFetch } from "../support/http.ts";

/**
 * The back office mounted the way the composition root will mount it on the public listener
 * (`app.route("/", createDashboard(deps))` on createHttpApp's app): its routes answer, the public
 * app's own routes and 404 still do, the app's secure headers (applied last) keep a CSP without
 * inline script, and a crash inside the back office is its own 500 page.
 */

let h: DashboardHarness;
let server: Awaited<ReturnType<typeof serveFetch>>;

beforeAll(async () => {
  h = await startDashboard();
  const logger = createLogger({ level: "silent", secrets: [] });
  const app = createHttpApp({ health: [], logger });
  const deps: DashboardDeps = { ...h.deps, publicUrl: "https://bot.example.com" };
  app.route(
    "/",
    createDashboard({
      ...deps,
      // The link's origin is the public URL; tests reach the same app on loopback.
      orders: {
        get: async (ref) => {
          if (ref === "666") throw new Error("store down");
          return h.store.get(ref);
        },
        search: (q) => h.store.search(q),
      },
    }),
  );
  server = await serveFetch((req, env) => app.fetch(req, env));
});

afterAll(async () => {
  await server?.close();
  await h?.close();
});

describe("the back office on the public app", () => {
  it("serves its pages beside /healthz, and the public app's 404 elsewhere", async () => {
    const c = client(server.url);
    expect((await c.get("/healthz")).status).toBe(200);
    expect((await c.get("/dashboard/login")).status).toBe(200);
    expect((await c.get("/dashboard")).status).toBe(303);
    expect((await c.get("/dashboard/")).status).toBe(308);
    expect((await c.get("/nothing")).status).toBe(404);
    // Not the back office (review s32-backoffice nit 3): the public app's 404 with its headers.
    const near = await c.get("/dashboardx");
    expect(near.status).toBe(404);
    expect(near.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(near.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("builds links on the public URL; a POST from the public origin or our own is accepted", async () => {
    const link = (await h.access.issueLink(ADMIN))!;
    const path = new URL(link.url).pathname;
    const c = client(server.url);
    expect((await c.post(path, { origin: "https://bot.example.com" })).status).toBe(303);
    const home = await c.get("/dashboard");
    expect(home.status).toBe(200);
    const csp = home.headers.get("content-security-policy") ?? "";
    // The back office's own policy, not the public app's (which allows same-origin scripts).
    expect(csp).toContain("script-src 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(home.headers.get("cache-control")).toBe("no-store");
    expect(home.headers.get("x-request-id")).toBeTruthy();

    expect((await c.post("/dashboard/logout", { origin: "https://evil.example" })).status).toBe(
      403,
    );
    const crash = await c.get("/dashboard/orders?ref=666");
    expect(crash.status).toBe(500);
    expect(await crash.text()).not.toContain("store down");
  });
});
