import { Writable } from "node:stream";
import { Hono } from "hono";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { createHttpApp } from "../../src/http/app.ts";

/**
 * The access log's request id on every kind of answer: one Hono builds (c.text / c.json), a
 * Response a handler builds itself, a crashed handler's, an unknown route's; and one log line each.
 */
function app() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const a = createHttpApp({ health: [], logger: pino({ level: "info" }, sink) as never });
  a.post("/text", (c) => c.text("ok", 200));
  a.get("/raw", () => new Response("raw", { headers: { "X-Request-Id": "someone-else" } }));
  a.get("/crash", () => {
    throw new Error("boom");
  });
  // Mounted like the WhatsApp webhook: a Hono of its own with its own error answer.
  const sub = new Hono();
  sub.post("/", (c) => c.text("EVENT_RECEIVED", 200));
  sub.onError((_e, c) => c.text("bad request", 400));
  a.route("/hook", sub);
  return { a, lines };
}

describe("the access log's request id", () => {
  it("is on every response, the caller's when well-formed, else a new one", async () => {
    const { a, lines } = app();
    const given = { "X-Request-Id": "req-1" };
    const cases: Array<[string, RequestInit, number]> = [
      ["/text", { method: "POST", headers: given }, 200],
      ["/raw", { headers: given }, 200],
      ["/crash", { headers: given }, 500],
      ["/nowhere", { headers: given }, 404],
      ["/hook", { method: "POST", headers: given }, 200],
    ];
    for (const [path, init, status] of cases) {
      const res = await a.request(path, init);
      expect(res.status).toBe(status);
      expect(res.headers.get("x-request-id")).toBe("req-1");
      // Secure headers still there (set after the handler, on the same response).
      if (path !== "/raw") expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
    expect(await (await a.request("/text", { method: "POST" })).text()).toBe("ok");
    const fresh = await a.request("/raw");
    expect(fresh.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const logged = lines.filter((l) => l.msg === "http request");
    expect(logged.map((l) => [l.requestId, l.status])).toEqual([
      ["req-1", 200],
      ["req-1", 200],
      ["req-1", 500],
      ["req-1", 404],
      ["req-1", 200],
      [expect.any(String), 200],
      [fresh.headers.get("x-request-id"), 200],
    ]);
    // One line of primitive fields each (the cheaper child's kind, src/logger.ts), as before.
    for (const l of logged)
      expect(Object.keys(l).sort()).toEqual([
        "hostname",
        "level",
        "method",
        "ms",
        "msg",
        "pid",
        "requestId",
        "route",
        "status",
        "time",
      ]);
    expect(logged[2]).toMatchObject({ method: "GET", route: "/crash", status: 500 });
  });
});
