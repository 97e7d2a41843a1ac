import { createRequire } from "node:module";
import type { I18n } from "@grammyjs/i18n";
import type { Update } from "grammy/types";
import { Counter } from "prom-client";
import { type Accounts, formatPhone, type NumberChanges, waShortId } from "../accounts/index.ts";
import { carriesLinkCode, type SealedLink } from "../accounts/links.ts";
import { phoneSchema } from "../accounts/phone.ts";
import { noteToAdmins } from "../books/admin-note.ts";
import type { Crossings } from "../books/crossing.ts";
import type { BotContext } from "../bot/context.ts";
import { DEFAULT_LOCALE, translator } from "../bot/i18n.ts";
import type { IdleDeadlines } from "../bot/idle.ts";
import { carriesLoginLink } from "../dashboard/index.ts";
import { createSendPacer, memoryPaceStore, redisPaceStore } from "../notify/index.ts";
import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { chatIdOfWaId, waIdOfChat } from "../whatsapp/chat-ids.ts";
import { createRedisWaChatStore, type WaChatStore } from "../whatsapp/chat-store.ts";
import { createWhatsAppClient } from "../whatsapp/client.ts";
import { WHATSAPP_COMMANDS } from "../whatsapp/command-words.ts";
import { sealUserId } from "../whatsapp/held.ts";
import { createInboundHandler } from "../whatsapp/inbound.ts";
import { inboundAcceptor } from "../whatsapp/inbound-accept.ts";
import { createRedisInboundQueue, type WaInboundQueue } from "../whatsapp/inbound-queue.ts";
import { lateResender, statusAcceptor } from "../whatsapp/late-resend.ts";
import { lateResendStore } from "../whatsapp/late-resend-store.ts";
import { createMemoryWaChatStore } from "../whatsapp/memory-chat-store.ts";
import { createMemoryInboundQueue } from "../whatsapp/memory-inbound-queue.ts";
import { owedRepliesStore, owedReplySender } from "../whatsapp/owed-reply-worker.ts";
import { renderMessage, typedChoice } from "../whatsapp/render.ts";
import { type RouterDeps, whatsappRouter } from "../whatsapp/router.ts";
import type { WaWebhookEvents } from "../whatsapp/types.ts";
import { whatsappWebhook } from "../whatsapp/webhook.ts";
import type { Base } from "./base.ts";
import { numberChangeNotice } from "./number-change.ts";
import type { HttpApp } from "./server.ts";

/** The WhatsApp number's settings: WHATSAPP_* (src/config/whatsapp.ts), or the local stand-in's. */
export type WhatsAppSettings = NonNullable<Base["config"]["whatsapp"]>;

/** How long a chat's locale (and the person the inbound handler found for it) is trusted. */
const LOCALE_MS = 15_000;
/** Entries kept at most in each cache below; the oldest go first. */
const CACHE_MAX = 10_000;

function put<V>(map: Map<number, V>, key: number, value: V) {
  map.delete(key);
  map.set(key, value);
  if (map.size > CACHE_MAX) map.delete(map.keys().next().value as number);
}

/**
 * What a chat's list opener says and which template language it gets: its person's language. The
 * person is the one the inbound handler just found for the message being answered (`found`), else
 * read by the chat's phone; their language too when the handler read it with the message, else
 * read at the first send. A language this process sets is not served from the cache after
 * (`forget`); another instance's cache keeps the old one for at most LOCALE_MS.
 */
function localeLookup(base: Base, accounts: Accounts, i18n: I18n<BotContext>) {
  const cache = new Map<number, { at: number; locale: string; personId: number }>();
  const persons = new Map<number, { at: number; personId: number }>();
  const fresh = (hit: { at: number } | undefined) => hit && base.now() - hit.at < LOCALE_MS;
  // Moved by each language set: a read begun before it is not cached (it may be the old one).
  let sets = 0;
  const lookup = async (chatId: number) => {
    const hit = cache.get(chatId);
    let locale = fresh(hit) ? hit?.locale : undefined;
    if (locale === undefined) {
      const began = sets;
      const known = persons.get(chatId);
      const phone = waIdOfChat(chatId);
      const person = fresh(known)
        ? (known?.personId ?? null)
        : phone
          ? await accounts.userByPhone(phone as never)
          : null;
      const personId = person ?? chatId;
      locale = (await accounts.localeOf(personId)) ?? "en";
      if (began === sets) put(cache, chatId, { at: base.now(), locale, personId });
    }
    return { locale, opener: translator(i18n, locale)("wa-list-opener") };
  };
  /** `mark`: taken before the language was read; a set since then may make it the old one. */
  const found = (chatId: number, personId: number, locale: string | null, mark?: number) => {
    put(persons, chatId, { at: base.now(), personId });
    if (mark === undefined || mark === sets)
      put(cache, chatId, { at: base.now(), locale: locale ?? "en", personId });
  };
  /** The person's language was set: their chats' cached one goes (read again at the next send). */
  const forget = (personId: number) => {
    sets += 1;
    for (const [chatId, hit] of cache) if (hit.personId === personId) cache.delete(chatId);
  };
  return { lookup, found, forget, mark: () => sets };
}

function statusCounter(base: Base) {
  return new Counter({
    name: "whatsapp_statuses_total",
    help: "Delivery statuses WhatsApp reported for the messages sent, by status and error code",
    labelNames: ["status", "code"],
    registers: [base.registry],
  });
}

/** The sends' pace: Meta's rate for the number, 1 a second per chat (shared in Redis when it is). */
function sendPacer(
  settings: WhatsAppSettings,
  redis: RedisClient | undefined,
  prefix: string,
  now: () => number,
) {
  return createSendPacer({
    store: redis ? redisPaceStore(redis, keyspace(prefix).waPacePrefix) : memoryPaceStore(),
    limits: {
      globalPerSecond: settings.messagesPerSecond,
      globalBurst: 10,
      perChatPerSecond: 1,
      perChatBurst: 4,
      pushReserve: 0,
    },
    now,
  });
}

/**
 * The WhatsApp channel, when a number is configured (or the local stand-in runs): the router the
 * bot installs on its Apis, the webhook on the public app, and the queue's consumer (`worker`,
 * started with the other workers once the bot is known).
 */
export function wireWhatsApp(
  base: Base,
  parts: {
    settings: WhatsAppSettings | undefined;
    redis: RedisClient | undefined;
    accounts: Accounts;
    i18n: I18n<BotContext>;
    app: HttpApp;
    telegram: boolean;
    /** Whether a chat id is an agent's or an admin's: such a chat acts as itself (inbound.ts). */
    isStaff: (chatId: number) => boolean;
    /** The admins' durable alert of a held sender goes through them (the notifier's outbox). */
    crossings: Crossings;
    adminIds: readonly number[];
    /** Ends a chat's flow when a fresh account opens in it (bot/chat-state.ts). */
    forgetChat: (chatId: number) => Promise<void>;
    /** The idle deadlines: an owed question's is moved once it went out (bot/idle.ts). */
    idle: Pick<IdleDeadlines, "postpone">;
    /** WhatsApp customers who changed number, for the back office (system/number-change.ts). */
    numberChanges: NumberChanges;
  },
) {
  const { settings, redis } = parts;
  if (!settings) return undefined;
  const { config, logger, now } = base;
  const prefix = config.redis.prefix;
  const store: WaChatStore = redis
    ? createRedisWaChatStore(redis, prefix)
    : createMemoryWaChatStore();
  const pacer = sendPacer(settings, redis, prefix, now);
  const client = createWhatsAppClient({
    apiRoot: settings.apiRoot,
    apiVersion: settings.apiVersion,
    phoneNumberId: settings.phoneNumberId,
    accessToken: settings.accessToken,
    ...settings.api,
    pace: (to, signal) => pacer.acquire(chatIdOfWaId(to) ?? 0, signal ? { signal } : {}),
    registry: base.registry,
    logger,
    now,
  });
  const locales = localeLookup(base, parts.accounts, parts.i18n);
  // Answers a rate limit held, owed to their chats (whatsapp/router-owed.ts).
  const owedReplies = owedRepliesStore(redis, prefix, logger);
  parts.accounts.onLocaleSet(locales.forget);
  const router = whatsappRouter({
    store,
    client,
    render: renderMessage,
    localeOf: locales.lookup,
    template: settings.template,
    now,
    logger,
    telegram: parts.telegram,
    botInfo: WHATSAPP_ONLY_BOT,
    // /dashboard's link: the back office promises Redis holds only its token's hash.
    // Words never kept in the chat record: a login link, a link code (accounts/links.ts).
    secretText: (text) => carriesLoginLink(text) || carriesLinkCode(text),
    // A push to a held account's chat is withheld (staff chats are never held: no read for them).
    heldChat: async (chatId) => !parts.isStaff(chatId) && parts.accounts.waHeldNow(chatId),
    ...releasedChats(parts.accounts),
    owed: owedReplies,
  });
  const answers = owedReplySender({
    owed: owedReplies,
    router,
    now,
    logger,
    // The question the hold kept back reached the customer now: its idle time counts from now.
    delivered: (chatId) => parts.idle.postpone(chatId, now() + config.bot.conversationIdleMs),
  });
  const queue: WaInboundQueue = redis
    ? createRedisInboundQueue({ redis, prefix, consumer: base.instance, logger })
    : createMemoryInboundQueue(logger);
  const statuses = statusCounter(base);
  const owed = lateResendStore(redis, prefix, logger);
  const acceptStatuses = statusAcceptor({
    store,
    owed,
    now,
    logger,
    count: (status, code) => statuses.inc({ status, code: code === undefined ? "" : String(code) }),
  });
  // A late `failed` push sent again off the webhook's answer (late-resend.ts), under the
  // notifier's bound; the lease outlives a send as the notifier's lock does.
  const resender = lateResender({
    owed,
    router,
    now,
    logger,
    options: { retryForMs: config.notifier.retryForMs, leaseMs: config.notifier.lockMs },
  });
  const numberChanged = numberChangeNotice(base, parts);
  const acceptMessages = inboundAcceptor({ queue, registry: base.registry, logger, numberChanged });
  const accept = async (events: WaWebhookEvents) => {
    await acceptMessages(events.messages);
    await acceptStatuses(events.statuses);
  };
  parts.app.route(
    settings.webhookPath,
    whatsappWebhook({
      appSecret: settings.appSecret,
      verifyToken: settings.verifyToken,
      bodyLimitBytes: settings.webhookMaxBodyBytes,
      accept,
      logger,
    }),
  );
  base.webhookPosts.add(settings.webhookPath);
  return {
    /** The Bot API client's fetch: WhatsApp chats here, Telegram's calls on with grammY's own fetch. */
    fetch: router.fetchVia(grammyFetch),
    store,
    queue,
    /** The consumer, once the bot can handle updates. */
    worker(handleUpdate: (u: Update) => Promise<void>) {
      const handle = createInboundHandler({
        store,
        accounts: parts.accounts,
        handleUpdate,
        isStaff: parts.isStaff,
        markRead: (wamid) => client.markRead(wamid, true),
        typedChoice,
        commands: WHATSAPP_COMMANDS,
        now,
        logger,
        personFound: locales.found,
        alertWaHold: waHoldAlert(parts, now),
        localeMark: locales.mark,
        forgetChat: parts.forgetChat,
      });
      return {
        start: () => {
          queue.start(handle);
          resender.start();
          answers.start();
        },
        stop: async () => {
          await Promise.all([resender.stop(), answers.stop()]);
          await queue.stop();
        },
      };
    },
  };
}

/**
 * The admins' alert that another Meta user id writes from a WhatsApp-born account's number: one
 * per hold (account, user id, the time the hold was first recorded: after a decision the same
 * user id held again is a new hold, alerted again), written to the notifier's outbox in the same step that marks it told
 * (books/crossing.ts), so the notifier retries it and a crash cannot lose it. In English like the
 * other admin alerts; the topic is settle_proposed's (its note says it all: a new topic is a shape
 * an older notifier would drop).
 */
function waHoldAlert(
  parts: { i18n: I18n<BotContext>; crossings: Crossings; adminIds: readonly number[] },
  now: () => number,
) {
  const en = translator(parts.i18n, DEFAULT_LOCALE);
  return async (
    account: number,
    hold: { phone: Parameters<typeof formatPhone>[0]; waUserId: string; at: number },
  ) => {
    const at = now();
    const phone = formatPhone(hold.phone);
    const note = en("wa-held-admin", {
      phone,
      account: String(account),
      user: hold.waUserId,
      id: waShortId(hold.waUserId),
      accept: "accept",
      release: "release",
    });
    await parts.crossings.record(
      `waid:${account}:${hold.waUserId}:${hold.at}`,
      true,
      noteToAdmins(parts.adminIds, at, note),
    );
  };
}

export type WhatsAppChannel = NonNullable<ReturnType<typeof wireWhatsApp>>;

/**
 * The fetch grammY uses on Node (node-fetch 2, which takes grammY's abort-controller signals):
 * the Bot API's calls keep their transport when the WhatsApp router sits in front of it.
 */
const load = createRequire(import.meta.url);
const grammyFetch = load("node-fetch") as typeof fetch;

/** The grammY bot's token when only WhatsApp is configured: never sent anywhere (the router answers). */
export const WHATSAPP_ONLY_TOKEN = "0:whatsapp-only";

/** Who the bot is when only WhatsApp is configured (getMe has no Telegram to ask). */
export const WHATSAPP_ONLY_BOT = {
  id: 1,
  is_bot: true,
  first_name: "Recharge",
  username: "recharge_whatsapp",
  can_join_groups: false,
  can_read_all_group_messages: false,
  supports_inline_queries: false,
  can_connect_to_business: false,
  has_main_web_app: false,
};

/**
 * The account a released chat's link names now. A link is sealed with the Meta user id that proved
 * it (accounts/links.ts); one sealed by the chat's own account's person, once that account no
 * longer holds the number (released: `whose` asks only for a held or released chat), is its old
 * holder's proof, not of whoever reads the chat now: it names nobody (review s25-left, 2). The
 * inbound drops such a link only when the next holder writes with another user id. A link the
 * inbound marked suspended (its last writer did not match the seal: held by the link gate) names
 * nobody either, until the sealing sender writes again (review s25-f, B1). One more read, only for
 * a link sealed by a user id.
 */
async function linkNow(
  accounts: Accounts,
  chatId: number,
  holder: number | null,
  link: SealedLink | null,
): Promise<number | null> {
  // No seal (a join written before seals, or ""): the inbound holds every writer of it, so its
  // account's messages never go to whoever reads the number now (review s25-g, S1).
  if (link === null || link.suspended || !link.seal) return null;
  const sealer = sealUserId(link.seal);
  if (sealer === null || holder === chatId) return link.personId;
  return (await accounts.waUserOf(chatId)) === sealer ? null : link.personId;
}

/** Where a released number's chats send: a fresh account's, the old account's, the new holder's. */
function releasedChats(
  accounts: Accounts,
): Pick<RouterDeps, "chatOfAccount" | "chatNowOf" | "reachOf"> {
  return {
    // A fresh account's messages go to the chat of the number it holds now (one read each).
    chatOfAccount: async (id) => {
      const phone = await accounts.phoneOf(id);
      return phone === null ? null : chatIdOfWaId(phone);
    },
    // Who a released chat stands for now: its number's account and its link's (chat-calls.ts `whose`).
    chatNowOf: async (chatId) => {
      const phone = phoneSchema.safeParse(waIdOfChat(chatId));
      const [holder, link] = await Promise.all([
        phone.success ? accounts.userByPhone(phone.data) : null,
        accounts.links.sealedLinkOf(chatId),
      ]);
      return { holder, link: await linkNow(accounts, chatId, holder, link) };
    },
    // A released account's messages go to its old holder's other chat (accounts/released-reach.ts).
    reachOf: async (account) => {
      const r = await accounts.releasedReachOf(account);
      if (r === null || r === "held") return r;
      const chatId = "phone" in r ? chatIdOfWaId(r.phone) : r.channel;
      return chatId === null ? null : { chatId };
    },
  };
}
