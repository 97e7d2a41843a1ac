import { Writable } from "node:stream";
import { Registry } from "prom-client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createMetricsApp } from "../../src/http/app.ts";
import { type Listener, listen } from "../../src/http/listen.ts";
import { createLogger } from "../../src/logger.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * The metrics listener's error boundary (review s22, should-fix 1), over a real listener on
 * loopback: a failing /books or journal is logged once through pino (never console.error, which
 * skips the scrubbing and prints the error's own properties), the client gets a plain 500, and a
 * journal that fails after its 200 is seen by the client as a failed download, not a clean end.
 */

let server: Listener | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.restoreAllMocks();
});

function capture() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({
    level: "info",
    destination: new Writable({
      write(chunk, _enc, cb) {
        lines.push(JSON.parse(String(chunk)));
        cb();
      },
    }),
  });
  const consoleErrors: unknown[][] = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args);
  });
  return { logger, lines, consoleErrors };
}

/** An error such as ioredis's, with properties of its own that must not reach any output. */
function redisDown(message: string) {
  return Object.assign(new Error(message), { command: { args: ["SECRET-IN-ERR"] } });
}

describe("the metrics listener when the books fail", () => {
  it("GET /books: a plain 500, one pino line, no console.error", async () => {
    const { logger, lines, consoleErrors } = capture();
    const app = createMetricsApp({
      registry: new Registry(),
      logger,
      books: {
        report: async () => {
          throw redisDown("redis down");
        },
      },
    });
    server = await listen(app.fetch, { host: "127.0.0.1", port: 0 });
    const res = await fetch(`${server.url}/books`);
    expect(res.status).toBe(500);
    expect(await res.text()).toBe("internal error");
    const failed = lines.filter((l) => l.msg === "metrics request failed");
    expect(failed).toHaveLength(1);
    expect(failed[0]?.err).toMatchObject({ message: "redis down" });
    expect(JSON.stringify(lines)).not.toContain("SECRET-IN-ERR");
    expect(consoleErrors).toEqual([]);
  });

  it("a journal failing before its 200 is a plain 500 too", async () => {
    const { logger, lines, consoleErrors } = capture();
    const app = createMetricsApp({
      registry: new Registry(),
      logger,
      books: { journalCsv: async () => Promise.reject(redisDown("redis down")) },
    });
    server = await listen(app.fetch, { host: "127.0.0.1", port: 0 });
    const res = await fetch(`${server.url}/books/journal.csv?from=2026-01-01&to=2026-01-02`);
    expect(res.status).toBe(500);
    expect(await res.text()).toBe("internal error");
    expect(lines.filter((l) => l.msg === "metrics request failed")).toHaveLength(1);
    expect(consoleErrors).toEqual([]);
  });

  it("a journal failing mid-stream: the client's download fails, logged once through pino", async () => {
    const { logger, lines, consoleErrors } = capture();
    let cancelled = false;
    let calls = 0;
    // The first chunk goes out with the 200; the second read fails, as a worker or Redis dying would.
    const chunks: AsyncIterable<string> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          calls += 1;
          if (calls === 1) return { done: false, value: "date,account,debit,credit\r\n" };
          throw redisDown("mid-stream failure");
        },
        return: async () => {
          cancelled = true;
          return { done: true, value: undefined };
        },
      }),
    };
    const app = createMetricsApp({
      registry: new Registry(),
      logger,
      books: { journalCsv: () => chunks },
    });
    server = await listen(app.fetch, { host: "127.0.0.1", port: 0 });
    const res = await fetch(`${server.url}/books/journal.csv?from=2026-01-01&to=2026-01-02`);
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
    // Wait for the server to let go of the journal (its reader cancelled) or to print the error.
    await waitUntil(() => cancelled || consoleErrors.length > 0, "the journal let go");
    await new Promise((resolve) => setImmediate(resolve));
    expect(consoleErrors).toEqual([]);
    expect(cancelled).toBe(true);
    const failed = lines.filter((l) => String(l.msg).startsWith("journal csv failed"));
    expect(failed).toHaveLength(1);
    expect(failed[0]?.err).toMatchObject({ message: "mid-stream failure" });
    expect(JSON.stringify(lines)).not.toContain("SECRET-IN-ERR");
    expect(consoleErrors).toEqual([]);
  });

  it("through app.request (no node server), the body stream errors", async () => {
    const { logger } = capture();
    const app = createMetricsApp({
      registry: new Registry(),
      logger,
      books: {
        journalCsv: () =>
          (async function* () {
            yield "a,b\r\n";
            throw new Error("mid-stream failure");
          })(),
      },
    });
    const res = await app.request("/books/journal.csv?from=2026-01-01&to=2026-01-02");
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow("mid-stream failure");
  });
});
