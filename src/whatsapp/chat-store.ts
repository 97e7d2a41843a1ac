import { Cluster } from "ioredis";
import { z } from "zod";
import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { storedJson } from "../stored-json.ts";
import { decodeWords, encodeWords, pieces, seenHash, wamidHash } from "./chat-record.ts";
import {
  arriveScript,
  KEEP_MESSAGES,
  nextIdScript,
  putShownScript,
  putStatusScript,
  shownScript,
} from "./chat-scripts.ts";

/**
 * What the WhatsApp channel remembers of each chat, since WhatsApp keeps no state for the bot: the
 * message ids the chat engine sees (Telegram-like, one counter per chat for both directions, so
 * "newer" compares), what each of the bot's messages last showed (an edit that changes nothing
 * sends nothing), which WhatsApp messages render which of them (a tap names the message by its
 * wamid), the numbered choices of the newest list (a typed "3"), when the customer last wrote (the
 * 24-hour window) and the delivery statuses of what was sent. On Redis all of it is one small hash
 * per chat (chat-scripts.ts has its fields; issue 31 measured 4.2 KB in 12 keys mid-flow).
 */

const choiceSchema = z.object({ n: z.number().int(), data: z.string(), label: z.string() });
/** A message as written before issue 31 (JSON in `m:<id>`): still read until its chat expires. */
const oldShownSchema = z.object({
  text: z.string(),
  buttons: z.string(),
  choices: z.array(choiceSchema),
  seen: z.array(z.string()).default([]),
});
export type Choice = z.infer<typeof choiceSchema>;

/** What a message shows, as the router records it. */
export interface Shown {
  /**
   * Its words; null when only the buttons change and the words stay as recorded. A push whose
   * template would carry other words (rendered again in the template's language) keeps those: a
   * late `failed` 131047 sends them as the template, never the free-form words in another language.
   */
  text: string | null;
  /** The buttons as shown: a short key that changes when they change ("" for none). */
  buttons: string;
  choices: Choice[];
  /** Its buttons page (a new page is an edit that shows its words again). */
  paged?: boolean;
  /** Short hashes (chat-record.ts seenHash) of every text it showed: an edit back to one sends nothing. */
  seen: string[];
  /**
   * Its words carry a secret (a back-office login link): they and its numbered choices are never
   * kept, whatever could need them later (a template sent again after a late 131047).
   */
  secret?: boolean;
}

/** What a message showed, as the store gives it back. */
export interface StoredShown {
  /**
   * Its words, while kept: until its newest rendering is delivered, and while it is the newest
   * message with buttons; null after.
   */
  text: string | null;
  buttons: string;
  seen: string[];
}

/** WhatsApp's customer service window: free-form messages only this long after the customer wrote. */
export const WINDOW_MS = 24 * 3600 * 1000;

const inboundSchema = z.object({ at: z.number(), wamid: z.string().optional() });
/** The customer's last message: when (and, known in this process only, its wamid). */
export type LastInbound = z.infer<typeof inboundSchema>;

/**
 * Who wrote, read with the arrival when the store can (one Redis node): the person the phone
 * belongs to (null: nobody yet) and the language of that person, or of the chat when nobody
 * owns the phone (it is registered as the chat); null when none is set.
 */
export interface ArrivedPerson {
  owner: number | null;
  locale: string | null;
  /** The Meta user id recorded for the owner (accounts/store.ts `adoptWaUser`); null: none. */
  waUserId: string | null;
}

/** What `arrive` gives back. */
export interface Arrived {
  messageId: number;
  buttons: { messageId: number; choices: Choice[] } | null;
  /** Only when asked for and read in the same round trip (not on a Cluster, not in memory). */
  person?: ArrivedPerson;
}

export const STATUS_BIT = { sent: 1, delivered: 2, read: 4, failed: 8 } as const;
export type DeliveryStatus = keyof typeof STATUS_BIT;

export interface WaChatStore {
  nextMessageId(chatId: number): Promise<number>;
  /** What message `messageId` shows now, and the WhatsApp messages (wamids) that rendered it. */
  putShown(chatId: number, messageId: number, shown: Shown, wamids: string[]): Promise<void>;
  /**
   * A new message: the next message id (nextMessageId) taken as it is recorded (putShown), in one
   * round trip; its id. Ids then follow the order messages were recorded in.
   */
  putNew(chatId: number, shown: Shown, wamids: string[]): Promise<number>;
  shown(chatId: number, messageId: number): Promise<StoredShown | null>;
  /**
   * The message of the chat a sent wamid renders (a tap's `context.id`, a status's wamid); null
   * when unknown, another chat's, or older than the chat keeps.
   */
  messageOf(chatId: number, wamid: string): Promise<number | null>;
  /**
   * A customer's message arrives: recorded as the chat's last (the 24-hour window), and in the
   * same round trip what its handling reads next: "next" takes the next message id
   * (nextMessageId), "buttons" that and the newest message with buttons with its numbered choices
   * (a typed number may press one; the id is then left unused: ids need only grow; null when a
   * message without buttons came after it, or it numbers none), "none" neither (a tap: its
   * message is the one tapped). With `phone`, the person behind it too where that costs no round
   * trip of its own (`person`; absent: the caller reads it).
   */
  arrive(
    chatId: number,
    last: LastInbound,
    want: "none" | "next" | "buttons",
    phone?: string,
  ): Promise<Arrived>;
  /** When the customer last wrote; the wamid only when this process recorded it. */
  lastInbound(chatId: number): Promise<LastInbound | null>;
  /**
   * The last message of the chat this process recorded (arrive) in the last 24 hours, without
   * a read: a later one may be stored by another instance, never an earlier one, so a window this
   * says is open is open (the router's check before each send).
   */
  knownInbound(chatId: number): LastInbound | null;
  /**
   * Keeps a delivery status of a wamid sent to the chat; false when it was known already (a
   * redelivery: Meta redelivers for days, kept as long as the chat keeps the message).
   */
  putStatus(chatId: number, wamid: string, status: DeliveryStatus): Promise<boolean>;
  statuses(chatId: number, wamid: string): Promise<DeliveryStatus[]>;
  /**
   * Forgets the chat's newest numbered list (`lb`), so a typed digit presses none of it: the chat
   * changed hands (/waid release, a fresh account: bot/chat-state.ts `forget`).
   */
  forgetButtons(chatId: number): Promise<void>;
}

/**
 * Renderings and statuses outlive WhatsApp's 30-day conversation by a margin (the chat's hash, and
 * memory-chat-store.ts's chat, expire this long after their last write).
 */
export const CHAT_TTL_SECONDS = 35 * 86_400;
const TTL_SECONDS = CHAT_TTL_SECONDS;

const parseOld = (raw: string) => storedJson(oldShownSchema, raw);
export const bitsOf = (bits: number) =>
  (Object.keys(STATUS_BIT) as DeliveryStatus[]).filter((s) => (bits & STATUS_BIT[s]) !== 0);

/** The newest buttons from the arrive script's {lb, lo, record, words}: null without choices. */
function buttonsOf(lb: unknown, lo: unknown, raw: unknown, blob: unknown) {
  if (lb === null || lb === undefined || Number(lo ?? 0) > Number(lb)) return null;
  const record = typeof raw === "string" ? raw : "";
  const choices = record.startsWith("{")
    ? (parseOld(record)?.choices ?? [])
    : decodeWords(typeof blob === "string" ? blob : "").choices.map((c) => ({ ...c, label: "" }));
  return choices.length > 0 ? { messageId: Number(lb), choices } : null;
}

/** A record's parts (chat-scripts.ts): "<pieces>|<delivered>|<buttons>|<last wamid>|<seen>". */
function storedOf(raw: string, blob: string): StoredShown | null {
  if (raw.startsWith("{")) {
    const old = parseOld(raw);
    return old ? { text: old.text, buttons: old.buttons, seen: old.seen } : null;
  }
  const parts = raw.split("|");
  if (parts.length < 5) return null;
  const seenRun = parts[4] ?? "";
  const seen = seenRun.match(/.{6}/g) ?? [];
  const text = Number(parts[0]) > 0 ? decodeWords(blob).text : null;
  return { text, buttons: parts[2] ?? "", seen };
}

/**
 * The newest seen hashes as the record runs them together: 6 characters each, at most SEEN_MAX
 * (the record then stays <= 64 bytes: 2 + 1 + 1 + 1 + 6 + 1 + 4 + 1 + 42 = 59).
 */
const SEEN_MAX = 7;
const seenRun = (seen: readonly string[]) =>
  seen
    .slice(-SEEN_MAX)
    .map((h) => h.slice(0, 6).padEnd(6, "_"))
    .join("");

/**
 * The buttons' key as the record holds it: the router's (seenHash: 6 ASCII characters) as it is,
 * anything else (the JSON of a record from before issue 31) hashed to as many, so the record stays
 * within 64 bytes whatever characters its labels have.
 */
const buttonsField = (buttons: string) =>
  /^[A-Za-z0-9_-]{0,6}$/.test(buttons) ? buttons : seenHash(buttons);

/** The chats whose last message this process recorded, newest last, at most this many. */
const KNOWN_INBOUND_MAX = 10_000;
const DAY_MS = 86_400_000;

/** This process's own record of each chat's last message, kept a day (and at most the newest N). */
function knownInbounds() {
  const known = new Map<number, LastInbound>();
  return {
    put(chatId: number, last: LastInbound) {
      known.delete(chatId);
      known.set(chatId, last);
      if (known.size > KNOWN_INBOUND_MAX) known.delete(known.keys().next().value as number);
    },
    get(chatId: number): LastInbound | null {
      const last = known.get(chatId);
      if (last && Date.now() - last.at >= DAY_MS) known.delete(chatId);
      return known.get(chatId) ?? null;
    },
  };
}

export function createRedisWaChatStore(redis: RedisClient, prefix: string): WaChatStore {
  const k = keyspace(prefix);
  const known = knownInbounds();
  const oneNode = !(redis instanceof Cluster);
  const putArgs = (shown: Shown, sent: string[]) => [
    buttonsField(shown.buttons),
    seenRun(shown.seen),
    !shown.buttons ? "0" : shown.paged ? "3" : shown.choices.length > 0 ? "2" : "1",
    sent.map(wamidHash).join(","),
    KEEP_MESSAGES,
    // A secret's words are not written: the script then keeps no words for it.
    ...(sent.length > 0 && !shown.secret
      ? pieces(encodeWords(shown.text ?? "", shown.choices))
      : []),
  ];
  return {
    async forgetButtons(chatId) {
      // Its words and record go with the chat's sweep, as any message's that is not the newest.
      await redis.hdel(k.waChat(chatId), "lb");
    },
    async nextMessageId(chatId) {
      return Number(await nextIdScript.run(redis, { chat: k.waChat(chatId) }, TTL_SECONDS));
    },
    async putShown(chatId, messageId, shown, sent) {
      const chat = { chat: k.waChat(chatId) };
      await putShownScript.run(redis, chat, TTL_SECONDS, messageId, ...putArgs(shown, sent));
    },
    async putNew(chatId, shown, sent) {
      const chat = { chat: k.waChat(chatId) };
      return Number(
        await putShownScript.run(redis, chat, TTL_SECONDS, "", ...putArgs(shown, sent)),
      );
    },
    async shown(chatId, messageId) {
      const [raw, blob] = await shownScript.run(redis, { chat: k.waChat(chatId) }, messageId);
      return raw ? storedOf(raw, blob ?? "") : null;
    },
    async messageOf(chatId, wamid) {
      const v = await redis.hget(k.waChat(chatId), `w${wamidHash(wamid)}`);
      const id = Number(/^(\d+)\./.exec(v ?? "")?.[1] ?? 0);
      if (id > 0) return id;
      // A message sent before issue 31: its own key (35 days at most after the upgrade).
      const m = /^(\d+):(\d+)$/.exec((await redis.get(k.waWamid(wamid))) ?? "");
      return m && Number(m[1]) === chatId ? Number(m[2]) : null;
    },
    async arrive(chatId, last, want, phone) {
      known.put(chatId, last);
      const mode = want === "none" ? "" : want === "next" ? "n" : "b";
      // The accounts' hashes are in another slot: read in the script on one node only.
      const read = phone !== undefined && oneNode;
      const [n, owner, locale, wau, lb, lo, raw, blob] = await arriveScript.run(
        redis,
        { chat: k.waChat(chatId) },
        TTL_SECONDS,
        `s${Math.floor(last.at / 1000).toString(36)}`,
        mode,
        read ? k.accountPhones : "",
        read ? k.accountLocales : "",
        read ? phone : "",
        chatId,
        read ? k.accountWaUsers : "",
      );
      const buttons = want === "buttons" ? buttonsOf(lb, lo, raw, blob) : null;
      if (!read) return { messageId: Number(n), buttons };
      const person = {
        owner: owner === null || owner === undefined ? null : Number(owner),
        locale: typeof locale === "string" ? locale : null,
        waUserId: typeof wau === "string" ? wau : null,
      };
      return { messageId: Number(n), buttons, person };
    },
    async lastInbound(chatId) {
      const local = known.get(chatId);
      if (local) return local;
      const raw = await redis.hget(k.waChat(chatId), "in");
      if (!raw) return null;
      // Before issue 31 the field was JSON with the wamid.
      if (raw.startsWith("{")) {
        const r = inboundSchema.safeParse(JSON.parse(raw));
        return r.success ? { at: r.data.at } : null;
      }
      const at = raw.startsWith("s") ? Number.parseInt(raw.slice(1), 36) * 1000 : Number.NaN;
      return Number.isFinite(at) ? { at } : null;
    },
    knownInbound: (chatId) => known.get(chatId),
    async putStatus(chatId, wamid, status) {
      const added = await putStatusScript.run(
        redis,
        { chat: k.waChat(chatId) },
        TTL_SECONDS,
        wamidHash(wamid),
        STATUS_BIT[status],
        status === "delivered" || status === "read" ? "1" : "0",
      );
      return Number(added) === 1;
    },
    async statuses(chatId, wamid) {
      const v = await redis.hget(k.waChat(chatId), `w${wamidHash(wamid)}`);
      return bitsOf(Number(/^\d+\.(\d+)/.exec(v ?? "")?.[1] ?? 0));
    },
  };
}
