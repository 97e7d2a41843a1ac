import {
  type ConversationFlavor,
  conversations,
  createConversation,
} from "@grammyjs/conversations";
import { sequentialize } from "@grammyjs/runner";
import { RedisAdapter } from "@grammyjs/storage-redis";
import {
  type ApiClientOptions,
  Bot,
  type Context,
  InlineKeyboard,
  type SessionFlavor,
  session,
} from "grammy";
import type { Redis } from "ioredis";
import { PLAYGROUND_TOKEN } from "../../src/local-mode.ts";
import { PLAYGROUND_BOT_INFO } from "./system.ts";

/**
 * The stack floor: an echo bot on the stack the product must use, a grammY session on
 * @grammyjs/storage-redis and a conversations v2 conversation stored in Redis (read, replayed and
 * written back on every update), and nothing else. What the mandated plugins cost before any
 * product logic, so it bounds what the product could reach on the same machine and transport.
 * Used by the bot-turn benchmark (texts echoed) and the latency benchmark (`tap`: each echo
 * carries a button, and a tap on it is answered by editing that message, as a Confirm is).
 */

/** The button the echo carries with `tap`, and what the tapped message is edited to. */
export const FLOOR_TAP_LABEL = "Tap";
export const FLOOR_TAPPED = /^Tapped$/;
/**
 * The tap floor's button (issue 31 target 3): its tap first runs `pay` (one execute round trip to
 * the sandbox and one ledger script, what any product that holds money and calls the aggregator
 * must do), then edits the message as the plain tap does.
 */
export const FLOOR_PAY_LABEL = "Pay";
export const FLOOR_PAID = /^Paid$/;

type FloorContext = ConversationFlavor<Context & SessionFlavor<{ updates: number }>>;

export function stackFloorBot(opts: {
  redis: Redis;
  /** Key prefix; the floor's keys go under `<prefix>floor-session:` and `floor-conversation:`. */
  prefix: string;
  client: ApiClientOptions;
  /** Echoes carry a Tap button; a tap edits the message. */
  tap?: boolean;
  /** With `tap`: a Pay button too, whose tap runs this (with the chat id) before its edit. */
  pay?: (chatId: number) => Promise<void>;
  /** Under @grammyjs/runner (concurrent updates): one chat's updates in order, as grammY requires. */
  concurrent?: boolean;
}): Bot {
  const { redis, prefix } = opts;
  const bot = new Bot<FloorContext>(PLAYGROUND_TOKEN, {
    client: opts.client,
    botInfo: PLAYGROUND_BOT_INFO,
  });
  if (opts.concurrent) bot.use(sequentialize((ctx) => ctx.chat?.id.toString()));
  bot.use(
    session({
      initial: () => ({ updates: 0 }),
      storage: new RedisAdapter({ instance: redis, ttl: 3600 }),
      prefix: `${prefix}floor-session:`,
    }),
  );
  bot.use(
    conversations({
      storage: {
        type: "key",
        prefix: `${prefix}floor-conversation:`,
        adapter: new RedisAdapter({ instance: redis, ttl: 3600 }),
      },
    }),
  );
  const keyboard = new InlineKeyboard().text(FLOOR_TAP_LABEL, "tap");
  if (opts.pay) keyboard.text(FLOOR_PAY_LABEL, "pay");
  const pay = opts.pay;
  bot.use(
    createConversation<FloorContext, Context>(async (conversation, ctx) => {
      let current: Context = ctx;
      for (;;) {
        const data = current.callbackQuery?.data;
        const chatId = current.chat?.id;
        if (data === "pay" && pay && chatId !== undefined) {
          // Outside the replay, as any conversation must run its side effects.
          await conversation.external(() => pay(chatId));
          await current.editMessageText("Paid");
        } else if (data !== undefined) await current.editMessageText("Tapped");
        else
          await current.reply(
            current.message?.text ?? "",
            opts.tap ? { reply_markup: keyboard } : {},
          );
        current = opts.tap
          ? await conversation.waitFor(["message:text", "callback_query:data"])
          : await conversation.waitFor("message:text");
      }
    }, "echo"),
  );
  bot.on("message:text", async (ctx) => {
    ctx.session.updates++;
    await ctx.conversation.enter("echo");
  });
  return bot as unknown as Bot;
}
