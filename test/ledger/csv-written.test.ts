import type { ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import type { HttpBindings } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csvDownload, type DownloadChunks, type DownloadEnd } from "../../src/http/csv-download.ts";
import { account } from "../../src/ledger/chart.ts";
import { chunkEncoder } from "../../src/ledger/csv-bytes.ts";
import { journalCsvOffThread } from "../../src/ledger/csv-off-thread.ts";
import { exportJournalCsv, JOURNAL_PAGE_MAX } from "../../src/ledger/index.ts";
import { createRedisLedger } from "../../src/ledger/redis-store.ts";
import { createLogger } from "../../src/logger.ts";
import { serveFetch } from "../support/http.ts";
import { REDIS_URL, testRedis } from "../support/redis.ts";

/**
 * The export's buffers given back once written (issue 31 target 5, session 30): served over HTTP,
 * csvDownload writes each chunk to the response itself and tells the source when its bytes are
 * out, and the worker refills that buffer for a later page. The bytes stay the export's exactly
 * across pages (multi-byte text too); a reader that may keep its chunks (app.request's stream)
 * never gives one back; a client leaving ends the worker; a failing page still cuts the download.
 */

const redis = testRedis("csv-written");
afterAll(() => redis.cleanup(), 60_000);

const T0 = Date.UTC(2026, 10, 2);
const PAGES = 6;
let seeded: { prefix: string; range: { from: number; to: number }; csv: string };

beforeAll(async () => {
  const clock = { now: T0 };
  const prefix = redis.prefix;
  const ledger = createRedisLedger({ redis: redis.redis, prefix, now: () => clock.now });
  for (let i = 0; i < JOURNAL_PAGE_MAX * PAGES + 37; i++) {
    clock.now += 1 + (i % 3);
    // Formula text, quotes, and Devanagari (three bytes a character) now and then.
    const reason = i % 7 === 0 ? (i % 2 ? `=sum(${i}) "q", x` : `फिर्ता ${i}, नेपाली`) : undefined;
    await ledger.transfer({
      id: `w-${i}`,
      debit: account.merchant.funding,
      credit: account.customer(3_000 + (i % 5)),
      amountPaisa: 1 + i * 7,
      kind: reason ? "adjustment" : "credit",
      ...(reason ? { reason } : {}),
    });
  }
  const range = { from: T0, to: clock.now + 1 };
  seeded = { prefix, range, csv: await exportJournalCsv(ledger, range) };
}, 120_000);

/** The worker's chunks, with what the download did to them: the chunks, the ones written. */
function watched() {
  const source = journalCsvOffThread(
    { redis: { url: REDIS_URL }, prefix: seeded.prefix },
    seeded.range,
  );
  const seen = { chunks: [] as Uint8Array[], room: 0, written: 0, returned: false };
  const chunks: DownloadChunks = {
    async *[Symbol.asyncIterator]() {
      try {
        for await (const c of source) {
          seen.chunks.push(c);
          if (c.buffer.byteLength > c.byteLength) seen.room++;
          yield c;
        }
      } finally {
        seen.returned = true;
      }
    },
    written(c) {
      seen.written++;
      source.written(c);
    },
  };
  return { chunks, seen };
}

/**
 * A server whose only route downloads `make()`'s chunks, telling `ends` how it ended (in the order
 * told; each telling lasts until `recording` has run, as a slow audit write would), `res` its response.
 * `rebuilt`: a middleware hands the server a new Response over the same body (as one that reads
 * `c.res.body` does), which @hono/node-server reads before it sends the head; csvDownload's own
 * response it reads only after.
 */
async function download(
  make: () => DownloadChunks,
  more: {
    recording?: (end: DownloadEnd) => Promise<void>;
    stallMs?: number;
    rebuilt?: boolean;
  } = {},
) {
  const ends: DownloadEnd[] = [];
  const seen: { res?: ServerResponse } = {};
  const app = new Hono();
  if (more.rebuilt) {
    app.use(async (c, next) => {
      await next();
      c.res = new Response(c.res.body, c.res);
    });
  }
  app.get("/j.csv", (c) => {
    seen.res = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
    return csvDownload(c, make(), {
      name: "j.csv",
      logger: createLogger({ level: "silent" }),
      fields: {},
      ended: async (end) => {
        ends.push(end);
        await more.recording?.(end);
      },
      ...(more.stallMs === undefined ? {} : { stallMs: more.stallMs }),
    });
  });
  return { app, ends, seen, server: await serveFetch(app.fetch) };
}

/** A raw client that sends the GET, and reads nothing unless it is told to. */
function rawGet(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.write("GET /j.csv HTTP/1.1\r\nHost: x\r\n\r\n");
      resolve(socket);
    });
    socket.once("error", reject);
    socket.pause();
  });
}

async function until(cond: () => boolean) {
  while (!cond()) await new Promise((r) => setImmediate(r));
}

describe("the export's buffers, given back once written", () => {
  it("over HTTP: the export byte for byte over several pages, each chunk given back", async () => {
    const w = watched();
    const { ends, server } = await download(() => w.chunks);
    try {
      const res = await fetch(`${server.url}/j.csv`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(Buffer.from(await res.arrayBuffer()).toString("utf8")).toBe(seeded.csv);
      await until(() => w.seen.written === w.seen.chunks.length);
      expect(w.seen.chunks.length).toBeGreaterThanOrEqual(PAGES + 2); // the header and 7 pages
      // Pages after the first buffers came back were made in buffers with room, to be refilled.
      expect(w.seen.room).toBeGreaterThan(0);
      expect(ends).toEqual([{ whole: true }]);
    } finally {
      await server.close();
    }
  });

  it("through a ReadableStream's reader (app.request), no chunk is ever given back", async () => {
    const w = watched();
    const { app, ends, server } = await download(() => w.chunks);
    try {
      const res = await app.request("/j.csv");
      expect(Buffer.from(await res.arrayBuffer()).toString("utf8")).toBe(seeded.csv);
      expect(w.seen.written).toBe(0);
      expect(w.seen.room).toBe(0);
      expect(ends).toEqual([{ whole: true }]);
    } finally {
      await server.close();
    }
  });

  it("a client leaving halfway ends the worker and is told as not whole", async () => {
    const w = watched();
    const { ends, server } = await download(() => w.chunks);
    try {
      const client = new AbortController();
      const res = await fetch(`${server.url}/j.csv`, { signal: client.signal });
      const reader = res.body?.getReader();
      expect((await reader?.read())?.done).toBe(false);
      client.abort();
      await until(() => w.seen.returned && ends.length > 0);
      expect(ends).toEqual([{ whole: false, why: "the client left before the end" }]);
    } finally {
      await server.close();
    }
  });

  it("a page failing after some were written cuts the connection: never a clean, shorter file", async () => {
    let written = 0;
    const page = new TextEncoder().encode(`${"1,x\r\n".repeat(40_000)}`);
    const { ends, server } = await download(() => ({
      async *[Symbol.asyncIterator]() {
        yield "seq\r\n";
        yield page;
        yield page.slice();
        throw new Error("the third page failed");
      },
      written: () => {
        written++;
      },
    }));
    try {
      const got = fetch(`${server.url}/j.csv`).then((res) => res.arrayBuffer());
      await expect(got).rejects.toThrow();
      await until(() => ends.length > 0);
      expect(ends).toEqual([{ whole: false, why: "the third page failed" }]);
      expect(written).toBeGreaterThan(0); // written to the response here, not through the stream
    } finally {
      await server.close();
    }
  });
});

describe("a download's end, recorded true (review s30-export)", () => {
  it("recorded whole, then the client resets before the end went out: the cut follows", async () => {
    let client: Socket | undefined;
    const { ends, seen, server } = await download(
      () => ({
        async *[Symbol.asyncIterator]() {
          yield "seq\r\n";
          yield "1,x\r\n";
        },
      }),
      {
        // The audit's write of "whole" lasts until the browser has reset the connection.
        recording: async (end) => {
          if (!end.whole) return;
          client?.resetAndDestroy();
          await until(() => seen.res?.destroyed === true);
        },
      },
    );
    try {
      client = await rawGet(server.port);
      client.on("error", () => {});
      await until(() => ends.length === 2);
      expect(ends).toEqual([
        { whole: true },
        { whole: false, why: "the client left as the end was sent" },
      ]);
    } finally {
      await server.close();
    }
  });

  it("on the stream's read path (the end in the server's first read, before the head): the cut follows too", async () => {
    // Whether the head had gone out when "whole" was being recorded: writeAll runs only after it,
    // so false proves the end was reached in pull.
    let headSent: boolean | undefined;
    const { ends, seen, server } = await download(
      // Empty: the server's first read meets the end, while it still waits to send the head.
      () => ({
        async *[Symbol.asyncIterator]() {},
      }),
      {
        rebuilt: true,
        // While "whole" is recorded the server gives up waiting, sends the head and waits on the
        // stream; then the response is destroyed as the record's answer comes: the pull finds it
        // destroyed before the server's cancel (on the response's close, a later turn), so the
        // correction is the pull's own, not the cancel's.
        recording: async (end) => {
          if (!end.whole) return;
          headSent = seen.res?.headersSent;
          await until(() => seen.res?.headersSent === true);
          seen.res?.destroy();
        },
      },
    );
    try {
      const client = await rawGet(server.port);
      client.on("error", () => {});
      await until(() => ends.length === 2);
      expect(headSent).toBe(false);
      expect(ends).toEqual([
        { whole: true },
        { whole: false, why: "the client left as the end was sent" },
      ]);
      client.destroy();
    } finally {
      await server.close();
    }
  });

  it("a client that stops reading is cut after the stall bound, the source ended", async () => {
    let returned = false;
    const page = new TextEncoder().encode("1,x\r\n".repeat(20_000));
    const { ends, seen, server } = await download(
      () => ({
        // Endless: more than any socket's buffers hold.
        async *[Symbol.asyncIterator]() {
          try {
            for (;;) yield page.slice();
          } finally {
            returned = true;
          }
        },
      }),
      { stallMs: 50 },
    );
    try {
      const client = await rawGet(server.port);
      client.on("error", () => {});
      await until(() => returned && ends.length > 0);
      expect(ends).toEqual([{ whole: false, why: "the client stopped reading" }]);
      expect(seen.res?.destroyed).toBe(true);
      client.destroy();
    } finally {
      await server.close();
    }
  });

  it("a `written` that throws is logged, never crashes: the download still ends whole", async () => {
    let calls = 0;
    const { ends, server } = await download(() => ({
      async *[Symbol.asyncIterator]() {
        yield "seq\r\n";
        yield "1,x\r\n";
      },
      written: () => {
        calls++;
        throw new Error("cannot take it back");
      },
    }));
    try {
      const res = await fetch(`${server.url}/j.csv`);
      expect(await res.text()).toBe("seq\r\n1,x\r\n");
      await until(() => calls === 2);
      expect(ends).toEqual([{ whole: true }]);
    } finally {
      await server.close();
    }
  });
});

describe("a chunk's bytes (ledger/csv-bytes.ts)", () => {
  const text = (n: number, s = "ab,c\r\n") => s.repeat(n);
  const utf8 = (b: Uint8Array) => Buffer.from(b).toString("utf8");

  it("exact bytes until a buffer comes back; then refills it while the text fits", () => {
    const enc = chunkEncoder();
    const first = enc.encode(text(100));
    expect(first.buffer.byteLength).toBe(600);
    enc.back(first.buffer as ArrayBuffer);
    const again = enc.encode(text(90, "xy\r\n"));
    expect(again.buffer).toBe(first.buffer); // the same memory, refilled
    expect(utf8(again)).toBe(text(90, "xy\r\n"));
    // Made after a buffer came back: with room for a somewhat longer page.
    const roomy = enc.encode(text(100));
    expect(roomy.buffer.byteLength).toBeGreaterThan(roomy.byteLength);
    expect(utf8(roomy)).toBe(text(100));
  });

  it("a buffer too small for the page is dropped; multi-byte text is whole", () => {
    const enc = chunkEncoder();
    const small = enc.encode("abc");
    enc.back(small.buffer as ArrayBuffer);
    const devanagari = "नेपाली, फिर्ता\r\n".repeat(500);
    const out = enc.encode(devanagari);
    expect(out.buffer).not.toBe(small.buffer);
    expect(utf8(out)).toBe(devanagari);
    enc.back(out.buffer as ArrayBuffer);
    const next = enc.encode("abc");
    expect(next.buffer).toBe(out.buffer);
    expect(utf8(next)).toBe("abc");
  });
});
