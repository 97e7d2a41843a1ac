import { Writable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.ts";
import { WA_CHAT_BASE } from "../../src/whatsapp/chat-ids.ts";
import { createRedisWaChatStore } from "../../src/whatsapp/chat-store.ts";
import { WhatsAppApiError } from "../../src/whatsapp/errors.ts";
import { lateResender, statusAcceptor } from "../../src/whatsapp/late-resend.ts";
import { createRedisLateResendStore } from "../../src/whatsapp/late-resend-store.ts";
import type { WaOutbound } from "../../src/whatsapp/types.ts";
import { testRedis } from "../support/redis.ts";
import { testRouter } from "../support/whatsapp-router.ts";

/**
 * A message Meta accepted and later reported `failed` (review s24-c items 1 and 2): the webhook
 * owes it again durably and answers at once (no send on its path); a worker sends it, on one
 * instance, again after a failure that sent nothing, once for each failed wamid; never a message
 * delivered or read. Real Redis: two "instances" share it.
 */
const HOUR = 3_600_000;
const redis = testRedis("wa-late-failed");
afterAll(() => redis.cleanup());
const WA_ID = "9779841000911";
const CHAT = WA_CHAT_BASE + Number(WA_ID);
const quiet = createLogger({ destination: new Writable({ write: (_c, _e, cb) => cb() }) });

let worlds = 0;
/** One world: a clock, Meta's sends (`refuse` may throw for a body), and instances over one Redis. */
function world() {
  worlds += 1;
  const prefix = `${redis.prefix}${worlds}:`;
  let now = 1_800_000_000_000;
  const sent: WaOutbound[] = [];
  /** What `whatsapp_statuses_total` was told, across the instances: "status code" each. */
  const counted: string[] = [];
  let refuse: (body: WaOutbound) => Error | undefined = () => undefined;
  /** The chat store's writes failing (its Redis away) once a send went out. */
  const broken = { record: false };
  const instance = () => {
    const conn = redis.connect();
    const store = createRedisWaChatStore(conn, prefix);
    const owed = createRedisLateResendStore(conn, prefix);
    const { router, fetch } = testRouter({
      store: {
        ...store,
        putShown: async (...args) => {
          if (broken.record) throw new Error("CLUSTERDOWN The cluster is down");
          return store.putShown(...args);
        },
      },
      now: () => now,
      send: async (_to, body) => {
        const err = refuse(body);
        if (err) throw err;
        sent.push(body);
        return { wamid: `wamid.${sent.length}` };
      },
    });
    const statuses = statusAcceptor({
      store,
      owed,
      now: () => now,
      logger: quiet,
      count: (st, code) => counted.push(`${st} ${code ?? ""}`),
    });
    const worker = lateResender({
      owed,
      router,
      now: () => now,
      logger: quiet,
      options: { retryForMs: 6 * HOUR },
    });
    const push = (text: string) =>
      fetch("http://bot.test/botX/sendMessage", {
        method: "POST",
        body: JSON.stringify({ chat_id: CHAT, text }),
      });
    return { store, statuses, worker, push };
  };
  const status = (wamid: string, s: "sent" | "failed" | "delivered" | "read", code?: number) => ({
    wamid,
    status: s,
    timestamp: Math.floor(now / 1000),
    recipientId: WA_ID,
    ...(code === undefined ? {} : { errors: [{ code, title: "t", message: "m" }] }),
  });
  return {
    instance,
    sent,
    counted,
    status,
    refuseWith: (f: typeof refuse) => (refuse = f),
    broken,
    advance: (ms: number) => (now += ms),
    now: () => now,
  };
}

const paused = new WhatsAppApiError("paused", { status: 400, code: 132015, mayHaveArrived: false });
const isTemplate = (b: WaOutbound | undefined) => b?.type === "template";

describe("WhatsApp: a late failed 131047 owed durably, sent as the template once", () => {
  it("a refused template is tried again, a redelivered status owes nothing more, two instances send once", async () => {
    const w = world();
    const a = w.instance();
    const b = w.instance();
    await a.store.arrive(CHAT, { at: w.now(), wamid: "wamid.in.1" }, "none");
    await a.push("✅ Order 7 succeeded.");
    expect(w.sent).toHaveLength(1);

    // Templates are paused: before, the inline resend failed, was swallowed, and nothing owed it.
    w.refuseWith((body) => (isTemplate(body) ? paused : undefined));
    w.advance(60_000);
    await a.statuses([w.status("wamid.1", "failed", 131047)]);
    // Nothing is sent on the webhook's answer path.
    expect(w.sent).toHaveLength(1);
    expect(await a.worker.runOnce()).toBe(1);
    expect(w.sent).toHaveLength(1);

    // Meta delivers the status again (to the other instance): still one entry.
    await b.statuses([w.status("wamid.1", "failed", 131047)]);
    w.refuseWith(() => undefined);
    w.advance(10 * 60_000);
    const taken = await Promise.all([a.worker.runOnce(), b.worker.runOnce()]);
    expect(taken.reduce((x, y) => x + y, 0)).toBe(1);
    expect(w.sent).toHaveLength(2);
    expect(w.sent[1]).toMatchObject({
      type: "template",
      template: { components: [{ parameters: [{ text: "✅ Order 7 succeeded." }] }] },
    });

    // Redelivered after it was sent, and later passes: nothing goes again.
    await b.statuses([w.status("wamid.1", "failed", 131047)]);
    w.advance(HOUR);
    expect(await a.worker.runOnce()).toBe(0);
    expect(await b.worker.runOnce()).toBe(0);
    expect(w.sent).toHaveLength(2);
  });

  it("a failure to owe it is thrown (the webhook's 503) and the status is not recorded", async () => {
    const w = world();
    const a = w.instance();
    await a.store.arrive(CHAT, { at: w.now(), wamid: "wamid.in.1" }, "none");
    await a.push("✅ Order 8 succeeded.");
    const broken = statusAcceptor({
      store: a.store,
      owed: {
        owe: async () => {
          throw new Error("redis down");
        },
        claim: async () => [],
        take: async () => false,
        done: async () => {},
        later: async () => {},
      },
      now: w.now,
      logger: quiet,
      count: () => {},
    });
    await expect(broken([w.status("wamid.1", "failed", 131047)])).rejects.toThrow(/redis down/);
    expect(await a.store.statuses(CHAT, "wamid.1")).toEqual([]);
    // Meta's redelivery then owes it.
    await a.statuses([w.status("wamid.1", "failed", 131047)]);
    expect(await a.worker.runOnce()).toBe(1);
    expect(w.sent.filter(isTemplate)).toHaveLength(1);
  });

  it("gives up after the bound, and at once on a refusal of this message", async () => {
    const w = world();
    const a = w.instance();
    await a.store.arrive(CHAT, { at: w.now(), wamid: "wamid.in.1" }, "none");
    await a.push("✅ Order 9 succeeded.");
    await a.push("✅ Order 10 succeeded.");
    w.refuseWith((body) => (isTemplate(body) ? paused : undefined));
    await a.statuses([
      w.status("wamid.1", "failed", 131047),
      w.status("wamid.2", "failed", 131047),
    ]);
    expect(await a.worker.runOnce()).toBe(2);
    w.advance(7 * HOUR);
    // wamid.1 still paused, 7 hours after it was due: past the bound. wamid.2's template is
    // refused as a message now (a bad parameter): given up at once.
    const bad = new WhatsAppApiError("bad", { status: 400, code: 100, mayHaveArrived: false });
    w.refuseWith((body) =>
      !isTemplate(body) ? undefined : JSON.stringify(body).includes("Order 9") ? paused : bad,
    );
    expect(await a.worker.runOnce()).toBe(2);
    w.refuseWith(() => undefined);
    w.advance(HOUR);
    expect(await a.worker.runOnce()).toBe(0);
    expect(w.sent).toHaveLength(2);
  });
});

describe("WhatsApp: a late resend whose answer was lost", () => {
  it("is sent again at most 3 times in all (each may show it twice)", async () => {
    const w = world();
    const a = w.instance();
    await a.store.arrive(CHAT, { at: w.now(), wamid: "wamid.in.1" }, "none");
    await a.push("✅ Order 16 succeeded.");
    let lost = 0;
    const timeout = new WhatsAppApiError("timeout", { status: 0, mayHaveArrived: true });
    w.refuseWith((body) => {
      if (!isTemplate(body)) return undefined;
      lost += 1;
      return timeout;
    });
    await a.statuses([w.status("wamid.1", "failed", 131047)]);
    for (let i = 0; i < 6; i += 1) {
      await a.worker.runOnce();
      w.advance(15 * 60_000);
    }
    expect(lost).toBe(3);
  });
});

describe("WhatsApp: other late failures Meta says to retry", () => {
  it.each([131000, 131016, 1, 2, 130429, 131048, 131056])(
    "late %i: the same words again inside the window after a minute",
    async (code) => {
      const w = world();
      const a = w.instance();
      await a.store.arrive(CHAT, { at: w.now(), wamid: "wamid.in.1" }, "none");
      await a.push("✅ Order 11 succeeded.");
      await a.statuses([w.status("wamid.1", "failed", code)]);
      expect(await a.worker.runOnce()).toBe(0);
      w.advance(60_000);
      expect(await a.worker.runOnce()).toBe(1);
      expect(w.sent).toHaveLength(2);
      expect(w.sent[1]).toMatchObject({ type: "text", text: { body: "✅ Order 11 succeeded." } });
    },
  );

  it("late 131049: after about a day, as the template once the window closed", async () => {
    const w = world();
    const a = w.instance();
    await a.store.arrive(CHAT, { at: w.now(), wamid: "wamid.in.1" }, "none");
    await a.push("✅ Order 12 succeeded.");
    await a.statuses([w.status("wamid.1", "failed", 131049)]);
    w.advance(23 * HOUR);
    expect(await a.worker.runOnce()).toBe(0);
    w.advance(HOUR);
    expect(await a.worker.runOnce()).toBe(1);
    expect(w.sent[1]).toMatchObject({ type: "template" });
  });

  it("not for the recipient unreachable (131026), nor a message delivered or read", async () => {
    const w = world();
    const a = w.instance();
    await a.store.arrive(CHAT, { at: w.now(), wamid: "wamid.in.1" }, "none");
    await a.push("✅ Order 13 succeeded.");
    await a.push("✅ Order 14 succeeded.");
    await a.push("✅ Order 15 succeeded.");
    // Statuses come in any order: a delivery (or a read) reported before the failure stands.
    await a.statuses([
      w.status("wamid.1", "failed", 131026),
      w.status("wamid.2", "delivered"),
      w.status("wamid.2", "failed", 131000),
      w.status("wamid.3", "read"),
      w.status("wamid.3", "failed", 131047),
    ]);
    w.advance(HOUR);
    expect(await a.worker.runOnce()).toBe(2);
    expect(w.sent).toHaveLength(3);
  });
});

/**
 * What each status's write is for (h-wastat, session 25: none could be skipped): a status is
 * counted once however often Meta delivers it and to whichever instance (`sent` and `read` carry
 * nothing else), and a `delivered` or a `read` alone stops a later `failed` from resending.
 */
describe("WhatsApp: each status counted once across instances", () => {
  it("sent, delivered, read and failed, each delivered twice to two instances (some at once), count once each", async () => {
    const w = world();
    const a = w.instance();
    const b = w.instance();
    await a.store.arrive(CHAT, { at: w.now(), wamid: "wamid.in.1" }, "none");
    await a.push("✅ Order 21 succeeded.");
    await a.push("✅ Order 22 succeeded.");
    const twice = async (st: ReturnType<typeof w.status>) => {
      await a.statuses([st]);
      await b.statuses([st]);
    };
    await twice(w.status("wamid.1", "sent"));
    await twice(w.status("wamid.1", "delivered"));
    await Promise.all([
      a.statuses([w.status("wamid.1", "read")]),
      b.statuses([w.status("wamid.1", "read")]),
    ]);
    await twice(w.status("wamid.2", "sent"));
    await Promise.all([
      a.statuses([w.status("wamid.2", "failed", 131047)]),
      b.statuses([w.status("wamid.2", "failed", 131047)]),
    ]);
    expect([...w.counted].sort()).toEqual([
      "delivered ",
      "failed 131047",
      "read ",
      "sent ",
      "sent ",
    ]);
    // Redelivered after the other statuses: still once.
    await twice(w.status("wamid.1", "sent"));
    expect(w.counted).toHaveLength(5);
    // The failed one is owed once and sent once; the delivered one is not.
    w.advance(HOUR);
    expect(await a.worker.runOnce()).toBe(1);
    expect(w.sent).toHaveLength(3);
  });

  it("a read with no delivered before it (Meta's order varies) stops a later failed from resending", async () => {
    const w = world();
    const a = w.instance();
    await a.store.arrive(CHAT, { at: w.now(), wamid: "wamid.in.1" }, "none");
    await a.push("✅ Order 23 succeeded.");
    await a.statuses([w.status("wamid.1", "sent"), w.status("wamid.1", "read")]);
    await a.statuses([w.status("wamid.1", "failed", 131047)]);
    w.advance(HOUR);
    // Owed (the webhook does not read the bits), then found read by the worker: nothing goes.
    expect(await a.worker.runOnce()).toBe(1);
    expect(w.sent).toHaveLength(1);
    expect(await a.store.statuses(CHAT, "wamid.1")).toEqual(["sent", "read", "failed"]);
  });
});

describe("WhatsApp: a late resend and what comes after it (review s24-f)", () => {
  it("the chat store failing after Meta took the resend: logged, sent once (before: every try for 6 h)", async () => {
    const w = world();
    const a = w.instance();
    await a.store.arrive(CHAT, { at: w.now(), wamid: "wamid.in.1" }, "none");
    await a.push("✅ Order 17 succeeded.");
    await a.statuses([w.status("wamid.1", "failed", 131000)]);
    w.broken.record = true;
    for (let i = 0; i < 50; i += 1) {
      w.advance(10 * 60_000);
      await a.worker.runOnce();
    }
    expect(w.sent).toHaveLength(2);
  });

  it("a resend Meta fails late as well keeps its chain's start: nothing goes after the 6 h bound", async () => {
    const w = world();
    const a = w.instance();
    const b = w.instance();
    await a.store.arrive(CHAT, { at: w.now(), wamid: "wamid.in.1" }, "none");
    await a.push("Order 7 succeeded.");
    const sentBy: number[] = [];
    for (let step = 0; step < 60; step += 1) {
      // Meta fails each send late with 131000 (its own trouble), 10 minutes apart.
      await (step % 2 ? a : b).statuses([w.status(`wamid.${w.sent.length}`, "failed", 131000)]);
      w.advance(10 * 60_000);
      await (step % 2 ? b : a).worker.runOnce();
      sentBy.push(w.sent.length);
    }
    // Before: a send every 10 minutes for all 10 hours (61 in all).
    expect(sentBy[59]).toBeLessThanOrEqual(38);
    expect(sentBy[59]).toBe(sentBy[40]);
  });

  it("131049 answered at once to a resend: tried again after about a day, not every few minutes", async () => {
    const w = world();
    const a = w.instance();
    await a.store.arrive(CHAT, { at: w.now(), wamid: "wamid.in.1" }, "none");
    await a.push("✅ Order 18 succeeded.");
    await a.statuses([w.status("wamid.1", "failed", 131000)]);
    let refused = 0;
    const cap = new WhatsAppApiError("cap", { status: 400, code: 131049, mayHaveArrived: false });
    w.refuseWith(() => {
      refused += 1;
      return cap;
    });
    for (let i = 0; i < 6 * 23; i += 1) {
      w.advance(10 * 60_000);
      await a.worker.runOnce();
    }
    expect(refused).toBe(1);
    // Refused 10 minutes in: due again a day after that.
    w.refuseWith(() => undefined);
    w.advance(2 * HOUR);
    await a.worker.runOnce();
    expect(w.sent).toHaveLength(2);
  });
});
