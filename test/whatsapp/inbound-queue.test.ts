import { afterAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.ts";
import { keyspace } from "../../src/redis/keyspace.ts";
import { createRedisInboundQueue, type InboundItem } from "../../src/whatsapp/inbound-queue.ts";
import type { WaInboundMessage } from "../../src/whatsapp/types.ts";
import { testRedis } from "../support/redis.ts";
import { sleep, waitUntil } from "../support/wait.ts";

/**
 * The inbound queue's order per chat on Redis: a message alone in its chat's line when queued is
 * marked so its consumer need not poll for its turn; any other waits for the earlier ones.
 */
const redis = testRedis("wa-inbound-queue");
afterAll(() => redis.cleanup());
const logger = createLogger({ level: "silent", secrets: [] });

const CHAT = 8_009_779_841_000_901;
const text = (wamid: string, body: string): WaInboundMessage => ({
  wamid,
  timestamp: 1,
  kind: "text",
  text: body,
  waId: "9779841000901",
});

describe("the WhatsApp inbound queue (redis)", () => {
  it("marks only a message alone in its chat's line as first, and keeps the chat's order", async () => {
    const prefix = `${redis.prefix}order:`;
    const queue = createRedisInboundQueue({ redis: redis.redis, prefix, consumer: "a", logger });
    expect(await queue.enqueue(CHAT, text("wamid.A", "one"))).toBe(true);
    expect(await queue.enqueue(CHAT, text("wamid.B", "two"))).toBe(true);
    expect(await queue.enqueue(CHAT, text("wamid.A", "one"))).toBe(false);
    expect(await queue.enqueue(CHAT + 1, text("wamid.C", "other chat"))).toBe(true);
    const entries = await redis.redis.xrange(keyspace(prefix).waInbound, "-", "+");
    const first = entries.map(([, f]) => f.includes("f"));
    expect(first).toEqual([true, false, true]);

    // The first message is held until released: the second, queued behind it, must not start.
    const events: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    queue.start(async (item: InboundItem) => {
      events.push(`start ${item.message.text}`);
      if (item.message.wamid === "wamid.A") await gate;
      events.push(`end ${item.message.text}`);
    });
    try {
      await waitUntil(async () => events.includes("end other chat"), "the other chat handled");
      await waitUntil(async () => events.includes("start one"), "the first message begun");
      await sleep(150);
      expect(events).not.toContain("start two");
      release();
      await waitUntil(async () => events.includes("end two"), "the second message handled");
      const ours = events.filter((e) => !e.includes("other"));
      expect(ours).toEqual(["start one", "end one", "start two", "end two"]);
    } finally {
      release();
      await queue.stop();
    }
  });

  it("hands a message not begun back at a stop: another instance handles it at once, before the chat's next", async () => {
    // Review s31-notify, finding 4: it stayed the stopped consumer's for CLAIM_IDLE_MS (5 min),
    // and the chat's next message, on another instance, ran ahead of it after MAX_WAIT_MS (2 min).
    const prefix = `${redis.prefix}stop:`;
    const stream = keyspace(prefix).waInbound;
    const a = createRedisInboundQueue({ redis: redis.redis, prefix, consumer: "a", logger });
    const b = createRedisInboundQueue({ redis: redis.redis, prefix, consumer: "b", logger });
    expect(await a.enqueue(CHAT, text("wamid.S1", "one"))).toBe(true);
    expect(await a.enqueue(CHAT, text("wamid.S2", "two"))).toBe(true);
    const events: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const pending = async () =>
      (await redis.redis.xpending(stream, "whatsapp", "-", "+", 10)) as Array<[string, string]>;
    a.start(async (item: InboundItem) => {
      events.push(`a start ${item.message.text}`);
      if (item.message.wamid === "wamid.S1") await gate;
      events.push(`a end ${item.message.text}`);
    });
    try {
      await waitUntil(async () => events.includes("a start one"), "A begins the first message");
      // The second delivered to A too, waiting its turn behind the first.
      await waitUntil(
        async () => (await pending()).filter(([, consumer]) => consumer === "a").length === 2,
        "both messages A's",
      );
      b.start(async (item: InboundItem) => {
        events.push(`b start ${item.message.text}`);
        events.push(`b end ${item.message.text}`);
      });
      // A deploy stops A: the first message finishes, the second is not begun.
      const stopping = a.stop();
      release();
      await stopping;
      expect(events).toEqual(["a start one", "a end one"]);
      expect(await b.enqueue(CHAT, text("wamid.S3", "three"))).toBe(true);
      // Well under MAX_WAIT_MS: before the fix the third ran only after it, and the second later.
      await waitUntil(async () => events.includes("b end three"), "B handles the third message");
      expect(events).toEqual([
        "a start one",
        "a end one",
        "b start two",
        "b end two",
        "b start three",
        "b end three",
      ]);
      // Each acknowledged once handled: nothing pending, nothing handled twice.
      await waitUntil(async () => (await pending()).length === 0, "nothing pending");
      expect(await redis.redis.zcard(keyspace(prefix).waPending(CHAT))).toBe(0);
    } finally {
      release();
      await a.stop();
      await b.stop();
    }
  });
});
