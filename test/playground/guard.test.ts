import { request } from "node:http";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { playgroundGuard } from "../../dev/playground/web/guard.ts";
import { PLAYGROUND_TOKEN } from "../../src/local-mode.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";

/**
 * The playground lets whoever reaches it chat as any demo user, the admin included. A page the
 * developer visits must not be able to use it through the developer's browser: no "simple"
 * cross-origin POST (text/plain, a form) is taken as a message, no other Origin is served, and a
 * DNS-rebinding page (its own name pointed at 127.0.0.1) is refused by Host, so it reads nothing.
 */

const ADMIN = 3001;

interface Answer {
  status: number;
  body: string;
}

/** Raw HTTP, so that Host and Origin are exactly what a browser on a foreign page would send. */
function raw(
  url: string,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  const { port } = new URL(url);
  const headers: Record<string, string | number> = {
    host: `127.0.0.1:${port}`,
    ...opts.headers,
    ...(opts.body === undefined ? {} : { "content-length": Buffer.byteLength(opts.body) }),
  };
  // An empty Host stands for none at all (HTTP/1.0 style).
  const noHost = headers.host === "";
  if (noHost) delete headers.host;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: Number(port),
        method: opts.method ?? "GET",
        path: opts.path,
        setHost: !noHost,
        headers,
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });
}

describe("the playground's API is the developer's alone", () => {
  let ts: TestSystem;
  let port: string;
  beforeAll(async () => {
    ts = await startTestSystem();
    port = new URL(ts.system.url).port;
  });
  afterAll(async () => {
    await ts.cleanup();
  });

  const say = (text: string, headers: Record<string, string>) =>
    raw(ts.system.url, {
      method: "POST",
      path: `/playground/api/users/${ADMIN}/messages`,
      headers,
      body: JSON.stringify({ text }),
    });
  const adminSaid = (text: string) =>
    (ts.system.emulator?.chat(ADMIN) ?? []).some((m) => m.from === "user" && m.text === text);

  it("a text/plain POST (what a foreign page sends without a preflight) is refused with 415", async () => {
    const res = await say("/books", { "content-type": "text/plain;charset=UTF-8" });
    expect(res.status).toBe(415);
    const form = await say("/books", { "content-type": "application/x-www-form-urlencoded" });
    expect(form.status).toBe(415);
    const none = await say("/books", {});
    expect(none.status).toBe(415);
    expect(adminSaid("/books")).toBe(false);
  });

  it("a POST from another origin is refused, even as JSON", async () => {
    for (const origin of ["http://evil.example", "null", `http://127.0.0.1:${Number(port) + 1}`]) {
      const res = await say("/credit", { "content-type": "application/json", origin });
      expect(res.status, origin).toBe(403);
    }
    const site = await say("/credit", {
      "content-type": "application/json",
      "sec-fetch-site": "cross-site",
    });
    expect(site.status).toBe(403);
    expect(adminSaid("/credit")).toBe(false);
  });

  it("a foreign Host (DNS rebinding) is refused: nothing is sent, nothing is read", async () => {
    for (const host of [
      `evil.example:${port}`,
      `127.evil.example:${port}`,
      `localhost.evil.example:${port}`,
      `127.0.0.1:${Number(port) + 1}`,
      "127.0.0.1",
      "",
    ]) {
      const post = await say("/help", { "content-type": "application/json", host });
      // No Host at all: Node's server answers 400 before the playground sees it.
      expect(post.status, host).toBe(host === "" ? 400 : 403);
      const read = await raw(ts.system.url, {
        path: `/playground/api/users/${ADMIN}/messages`,
        headers: { host },
      });
      expect(read.status, host).toBe(host === "" ? 400 : 403);
      expect(read.body).not.toContain("messages");
      const page = await raw(ts.system.url, { path: "/", headers: { host } });
      expect(page.status, host).toBe(host === "" ? 400 : 403);
      const books = await raw(ts.system.url, { path: "/playground/api/books", headers: { host } });
      expect(books.status, host).toBe(host === "" ? 400 : 403);
    }
    expect(adminSaid("/help")).toBe(false);
  });

  it("the Bot API emulator refuses a foreign Host too (no setWebhook to a page elsewhere)", async () => {
    const res = await raw(ts.system.url, {
      method: "POST",
      path: `/telegram/bot${PLAYGROUND_TOKEN}/setWebhook`,
      headers: {
        host: `evil.example:${port}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ url: "http://evil.example/hook" }),
    });
    expect(res.status).toBe(403);
    const simple = await raw(ts.system.url, {
      method: "POST",
      path: `/telegram/bot${PLAYGROUND_TOKEN}/setWebhook`,
      headers: { origin: "http://evil.example", "content-type": "text/plain" },
      body: JSON.stringify({ url: "http://evil.example/hook" }),
    });
    expect(simple.status).toBe(403);
  });

  it("the page itself, same-origin requests and scripts still work, by every loopback name", async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`]) {
      const page = await raw(ts.system.url, { path: "/", headers: { host } });
      expect(page.status, host).toBe(200);
      const res = await say(`/start ${host}`, {
        "content-type": "application/json; charset=utf-8",
        host,
        origin: `http://${host}`,
        "sec-fetch-site": "same-origin",
      });
      expect(res.status, host).toBe(200);
    }
    // A form posted by our own page under Referrer-Policy: no-referrer: Origin "null", and the
    // browser's Sec-Fetch-Site says same-origin (a foreign page's "null" says cross-site).
    const opaque = await say("/start opaque", {
      "content-type": "application/json",
      origin: "null",
      "sec-fetch-site": "same-origin",
    });
    expect(opaque.status).toBe(200);
    const foreignOpaque = await say("/credit", {
      "content-type": "application/json",
      origin: "null",
      "sec-fetch-site": "cross-site",
    });
    expect(foreignOpaque.status).toBe(403);
    const script = await say("/start script", { "content-type": "application/json" });
    expect(script.status).toBe(200);
    expect(adminSaid("/start script")).toBe(true);
  });

  it("routes outside the playground are not its business: /healthz answers any Host", async () => {
    const res = await raw(ts.system.url, {
      path: "/healthz",
      headers: { host: `evil.example:${port}` },
    });
    expect(res.status).toBe(200);
  });
});

describe("the guard's Host rule", () => {
  const app = new Hono();
  app.use("*", playgroundGuard({ hosts: ["bot.example.com"] }));
  app.get("/", (c) => c.text("ok"));
  const open = new Hono();
  open.use("*", playgroundGuard({ public: true, hosts: ["bot.example.com"] }));
  open.get("/", (c) => c.text("ok"));
  const on8080 = { incoming: { socket: { localPort: 8080 } } };
  const status = async (a: Hono, host: string) =>
    (await a.request("http://x/", { headers: { host } }, on8080)).status;

  it("loopback only, on the port the request came in on, plus the names configured", async () => {
    expect(await status(app, "localhost:8080")).toBe(200);
    expect(await status(app, "[::1]:8080")).toBe(200);
    expect(await status(app, "bot.example.com")).toBe(200);
    expect(await status(app, "localhost:18080")).toBe(403);
    expect(await status(app, "192.168.1.5:8080")).toBe(403);
    expect(await status(app, "127.evil.example:8080")).toBe(403);
    expect(await status(app, "user@localhost:8080")).toBe(403);
  });

  it("PLAYGROUND_PUBLIC=1: IP addresses too, on any port (a container's published one), never a foreign name", async () => {
    expect(await status(open, "localhost:18080")).toBe(200);
    expect(await status(open, "192.168.1.5:18080")).toBe(200);
    expect(await status(open, "[fd00::5]:8080")).toBe(200);
    expect(await status(open, "evil.example:8080")).toBe(403);
    expect(await status(open, "127.evil.example")).toBe(403);
  });
});
