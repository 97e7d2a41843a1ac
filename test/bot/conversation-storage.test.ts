import { deflateRawSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { deflatedRedisStorage } from "../../src/bot/conversation-storage.ts";
import { testRedis } from "../support/redis.ts";

describe("deflated conversation storage in Redis", () => {
  const t = testRedis("conv-store");
  afterAll(() => t.cleanup());
  // What a conversation holds: updates and Bot API answers, much of it repeated.
  const state = {
    replay: Array.from({ length: 6 }, (_, i) => ({
      message_id: i,
      from: {
        id: 7000000001,
        first_name: "Recharge Assistant",
        username: "recharge_assistant_bot",
      },
      chat: { id: 42, type: "private", first_name: "Sita" },
      text: `Step ${i}: Which mobile number should I recharge? (10 digits, NTC) ₹ रु`,
    })),
  };

  it("reads back what it wrote, smaller than its JSON, with the TTL set", async () => {
    const s = deflatedRedisStorage<typeof state>(t.redis, 3600);
    const key = `${t.prefix}conversation:1`;
    await s.write(key, state);
    expect(await s.read(key)).toEqual(state);
    const stored = await t.redis.getBuffer(key);
    expect(stored!.length).toBeLessThan(JSON.stringify(state).length / 2);
    const ttl = await t.redis.ttl(key);
    expect(ttl).toBeGreaterThan(3500);
    await s.delete(key);
    expect(await s.read(key)).toBeUndefined();
  });

  it("reads a conversation stored as plain JSON before the change", async () => {
    const s = deflatedRedisStorage<typeof state>(t.redis, 3600);
    const key = `${t.prefix}conversation:2`;
    await t.redis.set(key, JSON.stringify(state), "EX", 3600);
    expect(await s.read(key)).toEqual(state);
  });

  it("reads a conversation deflated at zlib's default level, as written before level 2", async () => {
    const s = deflatedRedisStorage<typeof state>(t.redis, 3600);
    const key = `${t.prefix}conversation:3`;
    const packed = deflateRawSync(Buffer.from(JSON.stringify(state)), {
      windowBits: 12,
      memLevel: 5,
    });
    await t.redis.set(key, Buffer.concat([Buffer.of(0), packed]), "EX", 3600);
    expect(await s.read(key)).toEqual(state);
  });

  // h-wabytes: a Bot API answer's message keeps only its id, date and chat (before: its text too,
  // the largest part of a stored conversation; nothing on replay reads it).
  it("stores a flow's messages without the bot's profile and keyboards, its answers' without their words, the rest as it was", async () => {
    const bot = { id: 7000000001, is_bot: true, first_name: "Recharge Assistant" };
    const user = { id: 42, is_bot: false, first_name: "Sita" };
    const chat = { id: 42, type: "private", first_name: "Sita" };
    const keyboard = {
      inline_keyboard: [[{ text: "📱 Mobile top-up", callback_data: "m:mobile" }]],
    };
    const conversation = {
      version: [0, "abc"],
      state: {
        mobile: [
          {
            interrupts: [3],
            replay: {
              send: [
                { payload: "wait" },
                { payload: "external" },
                { payload: "sendMessage" },
                { payload: "wait" },
              ],
              receive: [
                {
                  send: 0,
                  returnValue: {
                    update_id: 1,
                    callback_query: {
                      id: "9",
                      from: user,
                      message: {
                        message_id: 2,
                        from: bot,
                        chat,
                        text: "What?",
                        reply_markup: keyboard,
                      },
                      data: "m:mobile",
                    },
                  },
                },
                // Ours: kept whole, whatever its fields are called.
                { send: 1, returnValue: { ok: true, ret: { from: bot, reply_markup: keyboard } } },
                {
                  send: 2,
                  returnValue: {
                    ok: true,
                    res: {
                      ok: true,
                      result: {
                        message_id: 3,
                        from: bot,
                        chat,
                        date: 5,
                        text: "Which number?",
                        reply_markup: keyboard,
                      },
                    },
                  },
                },
                {
                  send: 3,
                  returnValue: {
                    update_id: 2,
                    message: { message_id: 4, from: user, chat, text: "9841234567" },
                  },
                },
              ],
            },
          },
        ],
      },
    };
    const before = structuredClone(conversation);
    const s = deflatedRedisStorage<typeof conversation>(t.redis, 3600);
    const key = `${t.prefix}conversation:4`;
    await s.write(key, conversation);
    expect(conversation).toEqual(before);
    const read = await s.read(key);
    const receive = read!.state.mobile[0]!.replay.receive;
    expect(receive[0]!.returnValue).toEqual({
      update_id: 1,
      callback_query: {
        id: "9",
        from: user,
        message: { message_id: 2, chat, text: "What?" },
        data: "m:mobile",
      },
    });
    expect(receive[1]).toEqual(before.state.mobile[0]!.replay.receive[1]);
    expect(receive[2]!.returnValue).toEqual({
      ok: true,
      res: { ok: true, result: { message_id: 3, chat, date: 5 } },
    });
    expect(receive[3]).toEqual(before.state.mobile[0]!.replay.receive[3]);
    expect({ ...read, state: undefined }).toEqual({ ...before, state: undefined });
  });
});
