import { Writable } from "node:stream";
import { createLogger } from "../../src/logger.ts";
import { renderMessage } from "../../src/whatsapp/render.ts";
import { whatsappRouter } from "../../src/whatsapp/router.ts";

type RouterOptions = Parameters<typeof whatsappRouter>[0];

/**
 * The WhatsApp router, and the bot's fetch through it (the Bot API's methods answered from WhatsApp),
 * with the product's rendering, English unless told, a quiet logger and the client's `send` the test gives;
 * the read mark does nothing.
 */
export function testRouter(opts: {
  store: RouterOptions["store"];
  send: RouterOptions["client"]["send"];
  now?: () => number;
  /** The chat's language (default English) and the template's languages (default en only). */
  localeOf?: RouterOptions["localeOf"];
  template?: RouterOptions["template"];
  /** Telegram's Bot API, for calls into Telegram chats (none: the router answers them itself). */
  telegram?: typeof fetch;
  /** The per-push hold check and a fresh account's chat (router.ts RouterDeps), when a test needs them. */
  heldChat?: RouterOptions["heldChat"];
  chatOfAccount?: RouterOptions["chatOfAccount"];
  /** A released account's other chat, and who its chat stands for now (router.ts RouterDeps). */
  reachOf?: RouterOptions["reachOf"];
  chatNowOf?: RouterOptions["chatNowOf"];
  /** Answers a rate limit held, owed to their chats (router-owed.ts). */
  owed?: RouterOptions["owed"];
}) {
  const router = whatsappRouter({
    store: opts.store,
    client: { send: opts.send, markRead: async () => {} },
    render: renderMessage,
    localeOf: opts.localeOf ?? (async () => ({ locale: "en", opener: "Choose" })),
    template: opts.template ?? { name: "order_update", languages: { en: "en_US" } },
    now: opts.now ?? (() => Date.now()),
    logger: createLogger({ destination: new Writable({ write: (_c, _e, cb) => cb() }) }),
    telegram: opts.telegram !== undefined,
    botInfo: {},
    ...(opts.heldChat ? { heldChat: opts.heldChat } : {}),
    ...(opts.chatOfAccount ? { chatOfAccount: opts.chatOfAccount } : {}),
    ...(opts.reachOf ? { reachOf: opts.reachOf } : {}),
    ...(opts.chatNowOf ? { chatNowOf: opts.chatNowOf } : {}),
    ...(opts.owed ? { owed: opts.owed } : {}),
  });
  return { router, fetch: router.fetchVia(opts.telegram ?? (async () => new Response("{}"))) };
}
