import { afterEach, describe, expect, it } from "vitest";
import {
  type Crossings,
  createFloatWatch,
  createMemoryCrossings,
  createRedisCrossings,
} from "../../src/books/index.ts";
import { createMetricsApp } from "../../src/http/app.ts";
import {
  booksAlertText,
  createMemoryNotificationQueue,
  createRedisNotificationQueue,
} from "../../src/notify/index.ts";
import type { Notification } from "../../src/orders/model.ts";
import { readingOf } from "../../src/orders/provider-events.ts";
import { eventFromExecute, isFloatRefusal } from "../../src/orders/service.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { testRedis } from "../support/redis.ts";

/**
 * The books' alerts (issue 15): one alert per crossing, written with the outbox in one step, on
 * both stores; the low-float watch's readings; the float refusal's recognition; GET /books behind
 * the metrics token.
 */

interface Harness {
  crossings: Crossings;
  /** What reached the outbox, oldest first. */
  queued(): Promise<Notification[]>;
  /** The crossing's stored state as Redis holds it (Redis only). */
  stored?(name: string): Promise<string | null>;
  /** Another process's crossings on the same store (Redis: its own connection). */
  another?(): Crossings;
  /** Stores a state as written by the previous version (Redis only). */
  storeAsBefore?(name: string, value: "above" | "below"): Promise<void>;
  close(): Promise<void>;
}

function memoryHarness(): Harness {
  const queue = createMemoryNotificationQueue();
  const consumer = queue.consumer("t");
  return {
    crossings: createMemoryCrossings(queue),
    queued: async () => (await consumer.read(100, 0)).map((d) => d.notification),
    close: async () => {},
  };
}

function redisHarness(): Harness {
  const t = testRedis("books-crossing");
  const queue = createRedisNotificationQueue({ redis: t.redis, prefix: t.prefix });
  const consumer = queue.consumer("t");
  return {
    crossings: createRedisCrossings(t.redis, t.prefix),
    queued: async () => (await consumer.read(100, 1)).map((d) => d.notification),
    another: () => createRedisCrossings(t.connect(), t.prefix),
    stored: (name) => t.redis.get(keyspace(t.prefix).crossing(name)),
    storeAsBefore: async (name, value) => {
      await t.redis.set(keyspace(t.prefix).crossing(name), value);
    },
    close: () => t.cleanup(),
  };
}

const alert = (at: number): Notification => ({
  kind: "admin_alert",
  topic: "low_float",
  reference: "1700000000001",
  status: "failed",
  chatId: 3001,
  at,
  figures: { thresholdPaisa: 100_000 },
});

describe.each([
  ["memory", memoryHarness],
  ["redis", redisHarness],
])("one alert per crossing (%s)", (_name, make) => {
  let h: Harness;
  afterEach(async () => {
    await h?.close();
  });

  it("alerts on the way down only, re-armed by a reading above; marks are set once", async () => {
    h = make();
    const seen: boolean[] = [];
    seen.push(await h.crossings.record("x", true, [alert(1)]));
    seen.push(await h.crossings.record("x", true, [alert(2)]));
    seen.push(await h.crossings.record("x", false, []));
    seen.push(await h.crossings.record("x", false, []));
    seen.push(await h.crossings.record("x", true, [alert(3)]));
    // Another crossing's state is its own.
    seen.push(await h.crossings.record("y", true, [alert(4)]));
    expect(seen).toEqual([true, false, false, false, true, true]);
    expect((await h.queued()).map((n) => n.at)).toEqual([1, 3, 4]);
    expect(await h.crossings.isMarked("m")).toBe(false);
    expect(await h.crossings.markOnce("m")).toBe(true);
    expect(await h.crossings.markOnce("m")).toBe(false);
    expect(await h.crossings.isMarked("m")).toBe(true);
  });

  it("the low-float watch: a reading below the threshold or a refusal crosses; none without a figure", async () => {
    h = make();
    const watch = createFloatWatch({
      thresholdPaisa: 100_000,
      adminChatIds: [3001, 3002],
      crossings: h.crossings,
      walletBalance: async () => ({ creditAvailablePaisa: 4_200 }),
    });
    const reading = { reference: "1700000000009", status: "queued" as const, at: 5 };
    expect(await watch({ ...reading, creditAvailablePaisa: 100_000, refused: false })).toBe(false);
    expect(await watch({ ...reading, refused: false })).toBe(false);
    expect(await watch({ ...reading, creditAvailablePaisa: 99_999, refused: false })).toBe(true);
    expect(await watch({ ...reading, refused: true })).toBe(false);
    expect(await watch({ ...reading, creditAvailablePaisa: 250_000, refused: false })).toBe(false);
    expect(await watch({ ...reading, status: "failed", refused: true })).toBe(true);
    const sent = await h.queued();
    expect(sent.map((n) => n.chatId)).toEqual([3001, 3002, 3001, 3002]);
    expect(sent[0]).toMatchObject({ topic: "low_float", figures: { balancePaisa: 99_999 } });
    // After a refusal the wallet was asked for its figure.
    expect(sent[2]).toMatchObject({ figures: { balancePaisa: 4_200, refused: 1 } });
    const off = createFloatWatch({ thresholdPaisa: 0, adminChatIds: [1], crossings: h.crossings });
    expect(await off({ ...reading, refused: true })).toBe(false);
  });

  // Fails on the code before the fix: the older low reading flipped the state and alerted.
  it("a low reading from before a refill, recorded after the refill's re-arm, does not alert", async () => {
    h = make();
    const watch = createFloatWatch({
      thresholdPaisa: 100_000,
      adminChatIds: [3001],
      crossings: h.crossings,
    });
    // A (told at 1000, before the refill) waits for its order's write; B (at 1001) re-arms at once.
    let written: (s: "queued") => void = () => {};
    const status = new Promise<"queued">((resolve) => {
      written = resolve;
    });
    const low = watch({
      reference: "1700000000011",
      status,
      at: 1_000,
      creditAvailablePaisa: 5_000,
      refused: false,
    });
    const high = {
      reference: "1700000000012",
      status: "queued" as const,
      at: 1_001,
      creditAvailablePaisa: 500_000,
      refused: false,
    };
    expect(await watch(high)).toBe(false);
    written("queued");
    expect(await low).toBe(false);
    expect(await h.queued()).toEqual([]);
    if (h.stored) expect(await h.stored("low-float")).toBe("above:1001");
    // The next low reading, newer than the re-arm, alerts; another, older still, changes nothing.
    const later = { ...high, reference: "1700000000013", creditAvailablePaisa: 5_000 };
    expect(await watch({ ...later, at: 1_001 })).toBe(true);
    expect(await watch({ ...later, at: 999 })).toBe(false);
    expect((await h.queued()).map((n) => n.reference)).toEqual(["1700000000013"]);
    if (h.stored) expect(await h.stored("low-float")).toBe("below");
  });

  // Review s32-books, nit. Fails on the code before the fix: the older re-arm, landing last,
  // replaced the newer one, and the low reading between them alerted.
  it("two re-arms landing out of order keep the newer reading's time", async () => {
    h = make();
    const watch = (crossings: Crossings) =>
      createFloatWatch({ thresholdPaisa: 100_000, adminChatIds: [3001], crossings });
    const one = watch(h.crossings);
    const two = watch(h.another?.() ?? h.crossings);
    const reading = (reference: string, at: number, creditAvailablePaisa: number) => ({
      reference,
      status: "queued" as const,
      at,
      creditAvailablePaisa,
      refused: false,
    });
    expect(await one(reading("1700000000021", 1_000, 5_000))).toBe(true);
    // The wallet read high at 2000, low at 2500, high again at 3000 (refilled): the answers land
    // out of order, the newest re-arm first and the oldest last, then the low one.
    expect(await one(reading("1700000000024", 3_000, 500_000))).toBe(false);
    expect(await two(reading("1700000000022", 2_000, 500_000))).toBe(false);
    if (h.stored) expect(await h.stored("low-float")).toBe("above:3000");
    expect(await two(reading("1700000000023", 2_500, 5_000))).toBe(false);
    expect((await h.queued()).map((n) => n.reference)).toEqual(["1700000000021"]);
    // A low reading after the newest re-arm still alerts (queued() reads what is new).
    expect(await one(reading("1700000000025", 3_001, 5_000))).toBe(true);
    expect((await h.queued()).map((n) => n.reference)).toEqual(["1700000000025"]);
  });

  it("a re-arm without a time (another crossing's, or the previous version's) stales nothing", async () => {
    h = make();
    expect(await h.crossings.record("x", false, [], 2_000)).toBe(false);
    expect(await h.crossings.record("x", false, [])).toBe(false);
    if (h.stored) expect(await h.stored("x")).toBe("above");
    expect(await h.crossings.record("x", true, [alert(1)], 1_000)).toBe(true);
    // A reading without a time is never stale, whatever the re-arm's time.
    expect(await h.crossings.record("x", false, [], 2_000)).toBe(false);
    expect(await h.crossings.record("x", true, [alert(2)])).toBe(true);
    expect((await h.queued()).map((n) => n.at)).toEqual([1, 2]);
  });
});

describe("the low-float alert after a refusal (review s32-books 4)", () => {
  it("says the wallet is short, not low, when it holds at or above the threshold", async () => {
    const h = redisHarness();
    try {
      const wallet = { paisa: 200_000 };
      const watch = createFloatWatch({
        thresholdPaisa: 100_000,
        adminChatIds: [3001],
        crossings: h.crossings,
        walletBalance: async () => ({ creditAvailablePaisa: wallet.paisa }),
      });
      const refused = { reference: "1700000000011", status: "failed" as const, refused: true };
      // An order bigger than the Rs 2,000 left: refused, the wallet above the Rs 1,000 line.
      expect(await watch({ ...refused, at: 1 })).toBe(true);
      // Re-armed by an order that went through; then one refused with the wallet below the line.
      expect(
        await watch({ ...refused, refused: false, creditAvailablePaisa: 150_000, at: 2 }),
      ).toBe(false);
      wallet.paisa = 4_200;
      expect(await watch({ ...refused, at: 3 })).toBe(true);
      const [short, low] = (await h.queued()).map((n) =>
        n.kind === "admin_alert" ? booksAlertText(n) : "",
      );
      expect(short).toContain(
        "is short: it holds Rs 2,000, less than an order needed (the low-wallet alert is below Rs 1,000).",
      );
      expect(short).not.toMatch(/is low|until it is above the threshold/);
      expect(short).toContain(
        "until an order goes through with the wallet at or above the threshold",
      );
      expect(low).toContain("is low: Rs 42 (alert below Rs 1,000).");
      expect(low).toContain("until it is above the threshold again");
    } finally {
      await h.close();
    }
  });
});

describe("a refusal for the merchant's float", () => {
  it("is recognised by the aggregator's words, and only then marked on the order", () => {
    expect(isFloatRefusal("Insufficient balance: Rs 500.00 needed, Rs 100.00 available")).toBe(
      true,
    );
    expect(isFloatRefusal("Low wallet balance")).toBe(true);
    expect(isFloatRefusal("Not enough credit in wallet")).toBe(true);
    expect(isFloatRefusal("Invalid mobile number")).toBe(false);
    expect(isFloatRefusal("Duplicate reference_no 17: balance unchanged")).toBe(false);
    const rejected = (message: string) =>
      eventFromExecute(
        { kind: "rejected", referenceNo: "1", httpStatus: 400, message, rateLimited: false },
        1,
      );
    expect(rejected("Insufficient balance: Rs 5 needed")).toMatchObject({
      status: "failed",
      floatShort: true,
    });
    expect(rejected("Invalid number").floatShort).toBeUndefined();
  });

  it("is recognised with the wallet named first too (review s32-books 3)", () => {
    // Before, these were plain refusals: the customer read them as the reason (a false word
    // about their own balance), no low-float alert went, the reservation was kept.
    for (const words of [
      "Wallet balance is insufficient",
      "Your balance is not sufficient for this transaction",
      "Wallet balance is low. Please load balance.",
      "Balance not enough",
      "Insufficient funds",
    ]) {
      expect(isFloatRefusal(words), words).toBe(true);
      const result = {
        kind: "rejected" as const,
        referenceNo: "1",
        httpStatus: 400,
        message: words,
        rateLimited: false,
      };
      expect(eventFromExecute(result, 1), words).toMatchObject({ floatShort: true });
      expect(readingOf(result), words).toEqual({ refused: true });
    }
    for (const words of [
      "Duplicate reference_no 17: balance unchanged",
      "Invalid mobile number",
      "Amount is lower than the minimum",
      "Credit card payments are not accepted",
    ]) {
      expect(isFloatRefusal(words), words).toBe(false);
    }
  });
});

describe("GET /books on the metrics listener", () => {
  it("wants the metrics token, answers 503 before the books are wired, then the report", async () => {
    const { Registry } = await import("prom-client");
    const books: { report?: () => Promise<unknown> } = {};
    const app = createMetricsApp({ registry: new Registry(), token: "s3cret", books });
    expect((await app.request("/books")).status).toBe(401);
    const auth = { headers: { authorization: "Bearer s3cret" } };
    expect((await app.request("/books", auth)).status).toBe(503);
    books.report = async () => ({ balanced: true });
    const res = await app.request("/books", auth);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ balanced: true });
  });
});

describe("the crossing's state as the previous version wrote it (during a rolling deploy)", () => {
  let h: Harness;
  afterEach(async () => {
    await h?.close();
  });

  it('"above" without a time re-arms as before; "below" stays below', async () => {
    h = redisHarness();
    await h.storeAsBefore?.("low-float", "above");
    expect(await h.crossings.record("low-float", true, [alert(1)], 1_000)).toBe(true);
    expect(await h.stored?.("low-float")).toBe("below");
    await h.storeAsBefore?.("low-float", "below");
    expect(await h.crossings.record("low-float", true, [alert(2)], 5_000)).toBe(false);
    expect(await h.stored?.("low-float")).toBe("below");
    expect((await h.queued()).map((n) => n.at)).toEqual([1]);
  });
});
