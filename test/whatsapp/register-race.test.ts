import { afterAll, describe, expect, it } from "vitest";
import { createRedisLinks } from "../../src/accounts/links.ts";
import type { Phone } from "../../src/accounts/phone.ts";
import { createRedisAccounts } from "../../src/accounts/store.ts";
import { createLogger } from "../../src/logger.ts";
import { chatIdOfWaId } from "../../src/whatsapp/chat-ids.ts";
import { createInboundHandler } from "../../src/whatsapp/inbound.ts";
import { WA_UPDATE_BASE } from "../../src/whatsapp/inbound-queue.ts";
import { createMemoryWaChatStore } from "../../src/whatsapp/memory-chat-store.ts";
import { typedChoice } from "../../src/whatsapp/render.ts";
import { testRedis } from "../support/redis.ts";

/**
 * s21 finding 8: the same person shares their contact on Telegram and writes on WhatsApp at the
 * same moment. WhatsApp read "no owner"; Telegram registered the number (and said so); the
 * WhatsApp registration must not then take it away: it registers only a number still nobody's.
 */
const redis = testRedis("wa-register-race");
afterAll(() => redis.cleanup());

describe("WhatsApp's registration on arrival", () => {
  it("leaves a number to the Telegram user who registered it after the owner was read", async () => {
    const prefix = `${redis.prefix}race:`;
    const accounts = createRedisAccounts({ redis: redis.redis, prefix });
    const links = createRedisLinks({ redis: redis.redis, prefix });
    const PHONE = "9779841031001" as Phone;
    const CHAT = chatIdOfWaId(PHONE) as number;
    const TG = 31_201;
    const people: number[] = [];
    const handle = createInboundHandler({
      store: createMemoryWaChatStore(),
      accounts: {
        phoneOf: (id: number) => accounts.phoneOf(id),
        waUserOf: (id: number) => accounts.waUserOf(id),
        // Both the registration this version makes and the one before it, on the same registry.
        claimPhone: (id: number, p: Phone) => accounts.claimPhone(id, p),
        register: (id: number, p: Phone) => accounts.register(id, p),
        links,
        // The owner is read while nobody owns the number; Telegram registers it just after.
        ownerAndLocale: async (p: Phone, or: number) => {
          const read = await accounts.ownerAndLocale(p, or);
          await accounts.register(TG, p);
          return read;
        },
      } as never,
      handleUpdate: async (u) => {
        people.push(Number(u.message?.from?.id ?? 0));
      },
      isStaff: () => false,
      markRead: async () => {},
      typedChoice,
      commands: new Set(["start"]),
      now: Date.now,
      logger: createLogger({ level: "silent", secrets: [] }),
    });
    await handle({
      updateId: WA_UPDATE_BASE + 1,
      chatId: CHAT,
      message: {
        wamid: "wamid.r1",
        waId: PHONE,
        name: "Sita",
        timestamp: 1,
        kind: "text",
        text: "hi",
      },
    });
    expect(await accounts.userByPhone(PHONE)).toBe(TG);
    expect(await accounts.phoneOf(TG)).toBe(PHONE);
    expect(await accounts.phoneOf(CHAT)).toBeNull();
    // The chat acts as itself (held: the link gate offers the code), never as the Telegram user.
    expect(people).toEqual([CHAT]);
  });
});
