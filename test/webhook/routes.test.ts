import { createCipheriv, createHash, createHmac, randomBytes } from "node:crypto";
import { connect } from "node:net";
import { Writable } from "node:stream";
import { Hono } from "hono";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { createLogger, type Logger } from "../../src/logger.ts";
import { createMemoryOrderStore } from "../../src/orders/memory-store.ts";
import type { Notification } from "../../src/orders/model.ts";
import { createOrders, type OrdersProvider } from "../../src/orders/service.ts";
import { MAX_HISTORY, MAX_UNRECOGNISED } from "../../src/orders/state.ts";
import { ProviderUnavailableError } from "../../src/provider/errors.ts";
import type { StatusResult } from "../../src/provider/schemas.ts";
import { createWebhookRoutes, type WebhookRoutes } from "../../src/webhook/routes.ts";
import { mobileInput, serveFetch } from "../support/orders.ts";

/**
 * The webhook receiver over real HTTP. Every vector here is built with node:crypto directly, not
 * with src/webhook/codec.ts, so the receiver is checked against an independent implementation.
 */

const SECRET = "whsec-test-0123456789";

/** hex(HMAC-SHA256(key = secret, message = hex(SHA-256(secret)))) per provider-notes. */
const sign = (secret: string) =>
  createHmac("sha256", secret)
    .update(createHash("sha256").update(secret).digest("hex"))
    .digest("hex");

function encrypt(
  payload: unknown,
  opts: { secret?: string; mode?: "php" | "sha256"; base64Ciphertext?: boolean } = {},
): string {
  const secret = opts.secret ?? SECRET;
  const key =
    opts.mode === "sha256"
      ? createHash("sha256").update(secret).digest()
      : Buffer.concat([Buffer.from(secret), Buffer.alloc(32)]).subarray(0, 32);
  const iv = randomBytes(16);
  const c = createCipheriv("aes-256-cbc", key, iv);
  const raw = Buffer.concat([c.update(JSON.stringify(payload)), c.final()]);
  const body = opts.base64Ciphertext ? Buffer.from(raw.toString("base64")) : raw;
  return Buffer.concat([iv, body]).toString("base64");
}

interface Setup {
  url: string;
  routes: WebhookRoutes;
  orders: ReturnType<typeof createOrders>;
  outbox: Notification[];
  statusQueries: string[];
  /** The status query's word, and the reference it names (the one asked, unless `about`). */
  statusAnswer: { value: string | "error"; about?: string };
  /** Orders read from the store (get and getByTransactionId) so far. */
  reads: { count: number };
  /** Orders written (update calls that changed something) so far. */
  writes: { count: number };
  close(): Promise<void>;
}

async function setup(
  opts: {
    confirmFinal?: boolean;
    keyMode?: "php" | "sha256";
    registry?: Registry;
    logger?: Logger;
  } = {},
): Promise<Setup> {
  const outbox: Notification[] = [];
  const memory = createMemoryOrderStore({ outbox: { append: (ns) => outbox.push(...ns) } });
  const reads = { count: 0 };
  const writes = { count: 0 };
  const store: typeof memory = {
    ...memory,
    update: async (reference, mutate, known) => {
      const r = await memory.update(reference, mutate, known);
      if (r?.updated) writes.count++;
      return r;
    },
    get: (reference) => {
      reads.count++;
      return memory.get(reference);
    },
    getByTransactionId: (transactionId) => {
      reads.count++;
      return memory.getByTransactionId(transactionId);
    },
  };
  const statusQueries: string[] = [];
  const statusAnswer: Setup["statusAnswer"] = { value: "success" };
  const provider: OrdersProvider = {
    async execute(req) {
      return { kind: "unknown", referenceNo: req.referenceNo, reason: "timeout", detail: "" };
    },
    async statusByReference(_region, referenceNo): Promise<StatusResult> {
      statusQueries.push(referenceNo);
      if (statusAnswer.value === "error") {
        throw new ProviderUnavailableError({ endpoint: "POST /np/order/status", httpStatus: 503 });
      }
      return {
        status: statusAnswer.value,
        transactionId: "TX-1",
        referenceNo: statusAnswer.about ?? referenceNo,
        amountPaisa: 10_000,
        timestampMs: null,
        connectionNo: null,
        operator: null,
        packageName: null,
      };
    },
  };
  const orders = createOrders({
    categories: CATEGORY_MODULES,
    accessMode: "staff",
    store,
    provider,
    ...(opts.registry ? { registry: opts.registry } : {}),
  });
  const routes = createWebhookRoutes({
    ...(opts.registry ? { registry: opts.registry } : {}),
    ...(opts.logger ? { logger: opts.logger } : {}),
    secret: SECRET,
    keyMode: opts.keyMode ?? "php",
    maxBodyBytes: 4096,
    confirmFinal: opts.confirmFinal ?? true,
    orders,
    provider,
  });
  const app = new Hono();
  app.route("/webhooks/provider", routes);
  const server = await serveFetch((req, env) => app.fetch(req, env));
  return {
    url: `${server.url}/webhooks/provider`,
    routes,
    orders,
    outbox,
    statusQueries,
    statusAnswer,
    reads,
    writes,
    close: server.close,
  };
}

async function post(url: string, body: string, signature: string | null = sign(SECRET)) {
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json",
      ...(signature === null ? {} : { "X-Signature": signature }),
    },
    body,
  });
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
}

const payload = (reference: string, status = "pending", over: Record<string, unknown> = {}) => ({
  status,
  transaction_id: 98765,
  order_id: Number(reference),
  amount: "100.00",
  timestamp: "2024-12-21T15:18:00Z",
  details: { connection_no: "9841234567", operator: "NTC Prepaid" },
  package_name: null,
  ...over,
});

/** An order the provider has been asked to execute (status unknown). */
async function sentOrder(s: Setup): Promise<string> {
  const o = await s.orders.place(mobileInput());
  await s.orders.submit(o.reference);
  return o.reference;
}

describe("webhook GET (connection check)", () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup();
  });
  afterAll(() => s.close());

  it("answers 200 JSON to the right signature and 401 otherwise", async () => {
    const ok = await fetch(s.url, { headers: { "X-Signature": sign(SECRET) } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await ok.json()).toMatchObject({ status: "ok" });
    const bad = await fetch(s.url, { headers: { "X-Signature": sign("other") } });
    expect(bad.status).toBe(401);
    expect((await fetch(s.url)).status).toBe(401);
  });
});

describe("webhook POST", () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup();
  });
  afterAll(() => s.close());

  it("accepts an independently built vector (raw and Base64 ciphertext) and applies it", async () => {
    const ref = await sentOrder(s);
    const r = await post(s.url, JSON.stringify({ data: encrypt(payload(ref, "pending")) }));
    expect(r).toMatchObject({ status: 200 });
    expect((await s.orders.get(ref))?.status).toBe("pending");

    const ref2 = await sentOrder(s);
    const r2 = await post(
      s.url,
      JSON.stringify({ data: encrypt(payload(ref2, "queued"), { base64Ciphertext: true }) }),
    );
    expect(r2.status).toBe(200);
    expect((await s.orders.get(ref2))?.status).toBe("queued");
  });

  it("gives every bad request the same answer, changes nothing and asks nobody", async () => {
    const ref = await sentOrder(s);
    const good = encrypt(payload(ref, "success"));
    const bytes = Buffer.from(good, "base64");
    const flip = (i: number) => {
      const b = Buffer.from(bytes);
      b[i] = (b[i] ?? 0) ^ 0x01;
      return b.toString("base64");
    };
    const cases: Array<[string, string, string | null]> = [
      [
        "flipped byte in the last block",
        JSON.stringify({ data: flip(bytes.length - 1) }),
        sign(SECRET),
      ],
      ["flipped byte in the first block", JSON.stringify({ data: flip(20) }), sign(SECRET)],
      ["flipped IV byte", JSON.stringify({ data: flip(0) }), sign(SECRET)],
      [
        "truncated data",
        JSON.stringify({ data: bytes.subarray(0, bytes.length - 5).toString("base64") }),
        sign(SECRET),
      ],
      [
        "truncated to the IV",
        JSON.stringify({ data: bytes.subarray(0, 16).toString("base64") }),
        sign(SECRET),
      ],
      ["wrong signature", JSON.stringify({ data: good }), sign("not-the-secret")],
      ["signature of other length", JSON.stringify({ data: good }), "abc"],
      ["no signature", JSON.stringify({ data: good }), null],
      [
        "wrong key mode",
        JSON.stringify({ data: encrypt(payload(ref, "success"), { mode: "sha256" }) }),
        sign(SECRET),
      ],
      [
        "wrong secret",
        JSON.stringify({ data: encrypt(payload(ref, "success"), { secret: "x".repeat(20) }) }),
        sign(SECRET),
      ],
      ["not Base64", JSON.stringify({ data: "%%%not-base64%%%" }), sign(SECRET)],
      ["not JSON", "data=abc", sign(SECRET)],
      ["no data field", JSON.stringify({ payload: good }), sign(SECRET)],
      ["empty body", "", sign(SECRET)],
      ["plaintext not JSON", JSON.stringify({ data: encryptText("not json") }), sign(SECRET)],
      [
        "payload without ids",
        JSON.stringify({ data: encrypt({ status: "success" }) }),
        sign(SECRET),
      ],
      [
        "payload with a bad id",
        JSON.stringify({ data: encrypt(payload(ref, "success", { order_id: "1; DROP" })) }),
        sign(SECRET),
      ],
    ];
    const answers = new Set<string>();
    for (const [name, body, sig] of cases) {
      const r = await post(s.url, body, sig);
      expect(r.status, name).toBe(400);
      answers.add(`${r.status} ${r.type} ${r.text}`);
    }
    expect([...answers]).toEqual(['400 application/json {"ok":false,"error":"rejected"}']);
    await s.routes.settled();
    expect((await s.orders.get(ref))?.status).toBe("unknown");
    expect(s.statusQueries).toEqual([]);
  });

  it("refuses a body over the limit with 413, before anything else", async () => {
    const big = JSON.stringify({ data: "A".repeat(5000) });
    expect((await post(s.url, big, null)).status).toBe(413);
    // Without Content-Length (streamed), the limit holds while reading.
    const res = await fetch(s.url, {
      method: "POST",
      headers: { "X-Signature": sign(SECRET) },
      body: new ReadableStream({
        start(c) {
          for (let i = 0; i < 10; i++) c.enqueue(new TextEncoder().encode("A".repeat(1000)));
          c.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
  });

  it("lets a slow sender that reads only after writing see the 413 (with and without Content-Length)", async () => {
    // A naive sender writes the whole body, then reads. If the server closes while bytes are still
    // arriving, the kernel answers them with a reset and the unread 413 is lost with it.
    for (const chunked of [false, true]) {
      const answer = await rawPost(s.url, { chunks: 12, chunkBytes: 16 * 1024, chunked });
      expect(answer.slice(0, 12), chunked ? "chunked" : "Content-Length").toBe("HTTP/1.1 413");
    }
  });

  it("acknowledges an event for an unknown order and keeps it for an admin", async () => {
    const r = await post(
      s.url,
      JSON.stringify({ data: encrypt(payload("424242424242", "pending")) }),
    );
    expect(r.status).toBe(200);
    expect(await s.orders.listUnmatched()).toContainEqual(
      expect.objectContaining({ reference: "424242424242", source: "webhook" }),
    );
  });
});

/**
 * POSTs over a raw socket, pausing between chunks (the body takes about a second), without reading
 * anything until the whole body is written. Resolves with whatever the server sent (may be empty).
 */
async function rawPost(
  url: string,
  o: { chunks: number; chunkBytes: number; chunked: boolean },
): Promise<string> {
  const { hostname, port, pathname } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port) });
  socket.pause();
  const received: Buffer[] = [];
  const closed = new Promise<void>((resolve) => {
    socket.on("data", (d: Buffer) => received.push(d));
    socket.on("close", () => resolve());
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  const write = (data: string) =>
    new Promise<void>((resolve) => {
      if (socket.destroyed) return resolve();
      socket.write(data, () => resolve());
    });
  const length = o.chunks * o.chunkBytes;
  await write(
    `POST ${pathname} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\n` +
      `X-Signature: ${sign(SECRET)}\r\nConnection: close\r\n` +
      (o.chunked ? "Transfer-Encoding: chunked\r\n\r\n" : `Content-Length: ${length}\r\n\r\n`),
  );
  const piece = "A".repeat(o.chunkBytes);
  for (let i = 0; i < o.chunks; i++) {
    await write(o.chunked ? `${o.chunkBytes.toString(16)}\r\n${piece}\r\n` : piece);
    await new Promise((r) => setTimeout(r, 80));
  }
  if (o.chunked) await write("0\r\n\r\n");
  socket.resume();
  await Promise.race([closed, new Promise((r) => setTimeout(r, 3000))]);
  socket.destroy();
  return Buffer.concat(received).toString("latin1");
}

function encryptText(text: string): string {
  const key = Buffer.concat([Buffer.from(SECRET), Buffer.alloc(32)]).subarray(0, 32);
  const iv = randomBytes(16);
  const c = createCipheriv("aes-256-cbc", key, iv);
  return Buffer.concat([iv, c.update(text), c.final()]).toString("base64");
}

describe("PHP's empty arrays (review s32-books 1)", () => {
  it("a signed event whose details, amount or time came as [] is applied, not refused", async () => {
    const s = await setup();
    try {
      // PHP's json_encode writes an empty array as [], never {}: a field only kept costs nothing.
      const ref = await sentOrder(s);
      const empty = { details: [], amount: [], timestamp: [], package_name: [] };
      const r = await post(
        s.url,
        JSON.stringify({ data: encrypt(payload(ref, "pending", empty)) }),
      );
      expect(r.status).toBe(200);
      expect((await s.orders.get(ref))?.status).toBe("pending");
      // A final claim so written is confirmed and applied like any.
      const r2 = await post(
        s.url,
        JSON.stringify({ data: encrypt(payload(ref, "success", empty)) }),
      );
      expect(r2.status).toBe(200);
      await s.routes.settled();
      expect((await s.orders.get(ref))?.status).toBe("success");
      // What is acted on stays strict: no reference and no transaction id is refused.
      const none = payload(ref, "success", { order_id: [], transaction_id: [] });
      expect((await post(s.url, JSON.stringify({ data: encrypt(none) }))).status).toBe(400);
    } finally {
      await s.close();
    }
  });
});

describe("final claims", () => {
  it("are confirmed by a status query: the provider's answer is applied, not the claim", async () => {
    const s = await setup();
    try {
      const ref = await sentOrder(s);
      s.statusAnswer.value = "pending";
      expect(
        (await post(s.url, JSON.stringify({ data: encrypt(payload(ref, "success")) }))).status,
      ).toBe(200);
      await s.routes.settled();
      expect(s.statusQueries).toEqual([ref]);
      expect((await s.orders.get(ref))?.status).toBe("pending");

      s.statusAnswer.value = "success";
      await post(s.url, JSON.stringify({ data: encrypt(payload(ref, "success")) }));
      await s.routes.settled();
      const o = await s.orders.get(ref);
      expect(o?.status).toBe("success");
      expect(o?.transactionId).toBe("TX-1");
      expect(s.outbox.filter((n) => n.status === "success")).toHaveLength(1);
    } finally {
      await s.close();
    }
  });

  it("read the order once: the confirmation goes on from the order read for the claim", async () => {
    const s = await setup();
    try {
      const ref = await sentOrder(s);
      for (const answer of ["success", "error"]) {
        const other = answer === "success" ? ref : await sentOrder(s);
        s.statusAnswer.value = answer;
        s.reads.count = 0;
        await post(s.url, JSON.stringify({ data: encrypt(payload(other, "success")) }));
        await s.routes.settled();
        expect(s.reads.count).toBe(1);
      }
      expect((await s.orders.get(ref))?.status).toBe("success");
    } finally {
      await s.close();
    }
  });

  it("on a sent order are written once, by the confirmation, which names the claim", async () => {
    const s = await setup();
    try {
      const ref = await sentOrder(s);
      const before = (await s.orders.get(ref))!.history.length;
      s.statusAnswer.value = "pending";
      s.writes.count = 0;
      await post(s.url, JSON.stringify({ data: encrypt(payload(ref, "success")) }));
      await s.routes.settled();
      expect(s.writes.count).toBe(1);
      const o = await s.orders.get(ref);
      expect(o?.status).toBe("pending");
      expect(o?.history.slice(before)).toEqual([
        expect.objectContaining({
          source: "status",
          status: "pending",
          note: "confirms webhook success",
        }),
      ]);
    } finally {
      await s.close();
    }
  });

  it("stay recorded when the status query answers a word nobody knows", async () => {
    const s = await setup();
    try {
      const ref = await sentOrder(s);
      s.statusAnswer.value = "in-limbo";
      await post(s.url, JSON.stringify({ data: encrypt(payload(ref, "success")) }));
      await s.routes.settled();
      const o = await s.orders.get(ref);
      expect(o?.status).toBe("unknown");
      expect(o?.unrecognised?.map((u) => u.word)).toEqual(["in-limbo"]);
      expect(o?.history.at(-1)).toMatchObject({
        source: "webhook",
        status: null,
        note: "claimed success; confirmation failed",
      });
    } finally {
      await s.close();
    }
  });

  it("on an order never sent are recorded as claims and change nothing", async () => {
    const s = await setup();
    try {
      const placed = await s.orders.place(mobileInput());
      await post(s.url, JSON.stringify({ data: encrypt(payload(placed.reference, "success")) }));
      await s.routes.settled();
      const o = await s.orders.get(placed.reference);
      expect(o?.status).toBe("placed");
      expect(o?.history.map((h) => h.note)).toContain("claimed success");
      expect(s.outbox.filter((n) => n.reference === placed.reference)).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it("stay recorded without a status change when the status query fails", async () => {
    const s = await setup();
    try {
      const ref = await sentOrder(s);
      s.statusAnswer.value = "error";
      expect(
        (await post(s.url, JSON.stringify({ data: encrypt(payload(ref, "failed")) }))).status,
      ).toBe(200);
      await s.routes.settled();
      const o = await s.orders.get(ref);
      expect(o?.status).toBe("unknown");
      expect(o?.history.map((h) => h.note)).toContain("claimed failed; confirmation failed");
    } finally {
      await s.close();
    }
  });

  // Fails on the code before: the answer about another order made this one success with its
  // transaction id. Review s20-r1, finding 6.
  it("stay recorded without a status change when the status answer is about another reference", async () => {
    const s = await setup();
    try {
      const ref = await sentOrder(s);
      s.statusAnswer.about = "1700000000999";
      await post(s.url, JSON.stringify({ data: encrypt(payload(ref, "success")) }));
      await s.routes.settled();
      const o = await s.orders.get(ref);
      expect(o?.status).toBe("unknown");
      expect(o?.transactionId).toBeUndefined();
      expect(o?.history.at(-1)).toMatchObject({
        source: "webhook",
        status: null,
        note: "claimed success; confirmation failed",
      });
    } finally {
      await s.close();
    }
  });

  it("are trusted when confirmation is off (sha256 key mode), keeping a huge transaction id exact", async () => {
    const s = await setup({ confirmFinal: false, keyMode: "sha256" });
    try {
      const ref = await sentOrder(s);
      // The huge id is a JSON number in the plaintext, so number precision is at stake.
      const plaintext = JSON.stringify(payload(ref, "success")).replace(
        '"transaction_id":98765',
        '"transaction_id":123456789012345678901',
      );
      const key = createHash("sha256").update(SECRET).digest();
      const iv = randomBytes(16);
      const c = createCipheriv("aes-256-cbc", key, iv);
      const data = Buffer.concat([iv, c.update(plaintext), c.final()]).toString("base64");
      expect((await post(s.url, JSON.stringify({ data }))).status).toBe(200);
      const o = await s.orders.get(ref);
      expect(o?.status).toBe("success");
      expect(o?.transactionId).toBe("123456789012345678901");
      expect(s.statusQueries).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it("a replayed old event cannot move an order backwards or notify twice", async () => {
    const s = await setup();
    try {
      const ref = await sentOrder(s);
      const pendingEvent = JSON.stringify({ data: encrypt(payload(ref, "pending")) });
      await post(s.url, pendingEvent);
      await post(s.url, JSON.stringify({ data: encrypt(payload(ref, "success")) }));
      await s.routes.settled();
      await post(s.url, pendingEvent);
      await post(s.url, JSON.stringify({ data: encrypt(payload(ref, "success")) }));
      await s.routes.settled();
      expect((await s.orders.get(ref))?.status).toBe("success");
      expect(s.outbox.map((n) => n.status)).toEqual(["unknown", "pending", "success"]);
    } finally {
      await s.close();
    }
  });

  it("cannot tell bad padding from a bad payload: one reason, one log line, one answer", async () => {
    // The padding oracle: with the static X-Signature of one captured delivery, an attacker who
    // sees either the metrics or the logs learns whether a forged ciphertext's padding was valid.
    const registry = new Registry();
    const lines: string[] = [];
    const logger = createLogger({
      level: "trace",
      destination: new Writable({
        write(chunk, _enc, cb) {
          lines.push(String(chunk));
          cb();
        },
      }),
    });
    const s = await setup({ registry, logger });
    try {
      const observe = async (body: string) => {
        registry.resetMetrics();
        lines.length = 0;
        const r = await post(s.url, body);
        const rejected = (await registry.getSingleMetricAsString(
          "recharge_webhooks_rejected_total",
        )) as string;
        const logged = lines.map((l) => {
          const { level, msg, ...rest } = JSON.parse(l) as Record<string, unknown>;
          delete rest.time;
          delete rest.pid;
          delete rest.hostname;
          return { level, msg, ...rest };
        });
        return { r, rejected, logged };
      };
      // Valid padding, plaintext not a payload; invalid padding; not even an envelope.
      const badPayload = await observe(JSON.stringify({ data: encryptText("not json at all") }));
      const good = Buffer.from(encryptText("x".repeat(40)), "base64");
      good[good.length - 17] = (good[good.length - 17] ?? 0) ^ 0xff; // corrupts the last block's padding
      const badPadding = await observe(JSON.stringify({ data: good.toString("base64") }));
      const noEnvelope = await observe("{}");
      expect(badPadding).toEqual(badPayload);
      expect(noEnvelope).toEqual(badPayload);
      expect(badPayload.rejected).toMatch(/reason="invalid"\} 1/);
    } finally {
      await s.close();
    }
  });
});

describe("unrecognised status words", () => {
  it("are kept in a bounded list of their own and cannot push real events out of the history", async () => {
    const s = await setup();
    try {
      const ref = await sentOrder(s);
      await post(s.url, JSON.stringify({ data: encrypt(payload(ref, "pending")) }));
      // More distinct junk words than the history could ever hold, each properly signed.
      const words = Array.from({ length: MAX_HISTORY + 20 }, (_, i) => `junk-${i}`);
      for (const w of words) {
        expect((await post(s.url, JSON.stringify({ data: encrypt(payload(ref, w)) }))).status).toBe(
          200,
        );
      }
      await post(s.url, JSON.stringify({ data: encrypt(payload(ref, "success")) }));
      await s.routes.settled();
      const o = await s.orders.get(ref);
      expect(o?.status).toBe("success");
      const real = o?.history.map((h) => [h.source, h.status, h.note ?? ""]);
      expect(real).toEqual([
        ["system", "placed", ""],
        ["system", "submitting", ""],
        ["execute", "unknown", "outcome unknown (timeout)"],
        ["webhook", "pending", ""],
        ["status", "success", "confirms webhook success"],
      ]);
      expect(o?.unrecognised).toHaveLength(MAX_UNRECOGNISED);
      expect(o?.unrecognised?.map((u) => u.word)).toEqual(words.slice(-MAX_UNRECOGNISED));
      expect(o?.unrecognised?.every((u) => u.source === "webhook")).toBe(true);
    } finally {
      await s.close();
    }
  });
});

describe("metrics", () => {
  it("counts webhooks received and rejected, and order transitions", async () => {
    const registry = new Registry();
    const s = await setup({ registry });
    try {
      const ref = await sentOrder(s);
      await post(s.url, JSON.stringify({ data: encrypt(payload(ref, "pending")) }));
      await post(s.url, JSON.stringify({ data: "bad" }));
      const text = await registry.metrics();
      expect(text).toMatch(/recharge_webhooks_received_total\{method="POST"\} 2/);
      expect(text).toMatch(/recharge_webhooks_rejected_total\{reason="invalid"\} 1/);
      expect(text).toMatch(
        /recharge_order_transitions_total\{from="unknown",to="pending",source="webhook"\} 1/,
      );
    } finally {
      await s.close();
    }
  });
});
