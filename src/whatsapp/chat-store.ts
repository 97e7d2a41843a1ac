import { z } from "zod";
import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { luaScript } from "../redis/scripts.ts";

/**
 * What the WhatsApp channel remembers of each chat, since WhatsApp keeps no state for the bot: the
 * message ids the chat engine sees (Telegram-like, one counter per chat for both directions, so
 * "newer" compares), what each of the bot's messages last showed (an edit that changes nothing
 * sends nothing), which WhatsApp messages render which of them (a tap names the message by its
 * wamid), the numbered choices of the newest list (a typed "3"), the customer's last message (the
 * 24-hour window, and the typing indicator) and the delivery statuses of what was sent.
 */

const choiceSchema = z.object({ n: z.number().int(), data: z.string(), label: z.string() });
export const shownSchema = z.object({
  text: z.string(),
  /** The buttons as shown: a key that changes when they change ("" for none). */
  buttons: z.string(),
  choices: z.array(choiceSchema),
  /** Short hashes of every text the message showed: an edit back to one of them sends nothing. */
  seen: z.array(z.string()).default([]),
});
export type Shown = z.infer<typeof shownSchema>;
export type Choice = z.infer<typeof choiceSchema>;

const inboundSchema = z.object({ at: z.number(), wamid: z.string() });
export type LastInbound = z.infer<typeof inboundSchema>;

export const STATUS_RANK = { sent: 1, delivered: 2, read: 3, failed: 4 } as const;
export type DeliveryStatus = keyof typeof STATUS_RANK;

export interface WaChatStore {
  nextMessageId(chatId: number): Promise<number>;
  /** What message `messageId` shows now, and the WhatsApp messages (wamids) that rendered it. */
  putShown(chatId: number, messageId: number, shown: Shown, wamids: string[]): Promise<void>;
  /**
   * A new message: the next message id (nextMessageId) taken as it is recorded (putShown), in one
   * round trip; its id. Ids then follow the order messages were recorded in.
   */
  putNew(chatId: number, shown: Shown, wamids: string[]): Promise<number>;
  shown(chatId: number, messageId: number): Promise<Shown | null>;
  /** The chat message a sent wamid renders (a tap's `context.id`); null when unknown or expired. */
  messageOf(wamid: string): Promise<{ chatId: number; messageId: number } | null>;
  /**
   * A customer's message arrives: recorded as the chat's last (the 24-hour window), and in the
   * same round trip what its handling reads next: "next" takes the next message id
   * (nextMessageId), "buttons" that and the newest message with buttons with its numbered choices
   * (a typed number may press one; the id is then left unused: ids need only grow; null when a
   * message without buttons came after it), "none" neither (a tap: its message is the one tapped).
   */
  arrive(
    chatId: number,
    last: LastInbound,
    want: "none" | "next" | "buttons",
  ): Promise<{ messageId: number; buttons: { messageId: number; choices: Choice[] } | null }>;
  lastInbound(chatId: number): Promise<LastInbound | null>;
  /**
   * The last message of the chat this process recorded (arrive) in the last 24 hours, without
   * a read: a later one may be stored by another instance, never an earlier one, so a window this
   * says is open is open (the router's check before each send).
   */
  knownInbound(chatId: number): LastInbound | null;
  /** Keeps a delivery status of a sent wamid; false when it was known already (a redelivery). */
  putStatus(wamid: string, status: DeliveryStatus, at: number): Promise<boolean>;
  statuses(wamid: string): Promise<Partial<Record<DeliveryStatus, number>>>;
}

/** Renderings and statuses outlive WhatsApp's 30-day conversation by a margin. */
const TTL_SECONDS = 35 * 86_400;
/** A chat keeps the renderings of its last 200 messages: older buttons answer "no longer active". */
const KEEP_MESSAGES = 200;

const parse = <T>(schema: z.ZodType<T>, raw: string | null | undefined): T | null => {
  if (!raw) return null;
  const r = schema.safeParse(JSON.parse(raw));
  return r.success ? r.data : null;
};

export function createMemoryWaChatStore(): WaChatStore {
  const seq = new Map<number, number>();
  const shownBy = new Map<string, Shown>();
  const wamids = new Map<string, { chatId: number; messageId: number }>();
  const lastButtoned = new Map<number, number>();
  const lastShown = new Map<number, number>();
  const inbound = new Map<number, LastInbound>();
  const statuses = new Map<string, Partial<Record<DeliveryStatus, number>>>();
  const putShown = (chatId: number, messageId: number, shown: Shown, sent: string[]) => {
    shownBy.set(`${chatId}:${messageId}`, shown);
    for (const w of sent) wamids.set(w, { chatId, messageId });
    if (shown.buttons) lastButtoned.set(chatId, messageId);
    if (sent.length > 0) lastShown.set(chatId, messageId);
  };
  return {
    async nextMessageId(chatId) {
      const n = (seq.get(chatId) ?? 0) + 1;
      seq.set(chatId, n);
      return n;
    },
    async putShown(chatId, messageId, shown, sent) {
      putShown(chatId, messageId, shown, sent);
    },
    async putNew(chatId, shown, sent) {
      const messageId = (seq.get(chatId) ?? 0) + 1;
      seq.set(chatId, messageId);
      putShown(chatId, messageId, shown, sent);
      return messageId;
    },
    async shown(chatId, messageId) {
      return shownBy.get(`${chatId}:${messageId}`) ?? null;
    },
    async messageOf(wamid) {
      return wamids.get(wamid) ?? null;
    },
    async arrive(chatId, last, want) {
      inbound.set(chatId, last);
      const messageId = want === "none" ? 0 : (seq.get(chatId) ?? 0) + 1;
      if (messageId > 0) seq.set(chatId, messageId);
      if (want !== "buttons") return { messageId, buttons: null };
      const lb = lastButtoned.get(chatId);
      if (lb === undefined || (lastShown.get(chatId) ?? 0) > lb)
        return { messageId, buttons: null };
      const choices = shownBy.get(`${chatId}:${lb}`)?.choices ?? [];
      return { messageId, buttons: { messageId: lb, choices } };
    },
    async lastInbound(chatId) {
      return inbound.get(chatId) ?? null;
    },
    knownInbound(chatId) {
      return inbound.get(chatId) ?? null;
    },
    async putStatus(wamid, status, at) {
      const known = statuses.get(wamid) ?? {};
      if (known[status] !== undefined) return false;
      statuses.set(wamid, { ...known, [status]: at });
      return true;
    },
    async statuses(wamid) {
      return statuses.get(wamid) ?? {};
    },
  };
}

/**
 * Each write is one script: the field(s) and the key's expiry in one command and one round trip
 * (a MULTI of the same was four to seven commands; issue 31 counted 49 Redis commands a step).
 * KEYS: the chat's hash (or a wamid's statuses). ARGV[1]: the TTL in seconds.
 */
const nextIdScript = luaScript<"chat", number>(
  "waNextMessageId",
  ["chat"],
  `
local n = redis.call('HINCRBY', KEYS[1], 'seq', 1)
redis.call('EXPIRE', KEYS[1], ARGV[1])
return n
`,
);
/** ARGV: ttl, status, at: 1 when the status is new, 0 when it was known (a redelivery). */
const putStatusScript = luaScript<"key", number>(
  "waPutStatus",
  ["key"],
  `
local added = redis.call('HSETNX', KEYS[1], ARGV[2], ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[1])
return added
`,
);
/**
 * ARGV: ttl, message id, the shown JSON, "1" when it has buttons, "1" when it was sent, the field
 * of the rendering dropped (KEEP_MESSAGES before).
 */
const putShownScript = luaScript<"chat", number>(
  "waPutShown",
  ["chat"],
  `
redis.call('HSET', KEYS[1], 'm:' .. ARGV[2], ARGV[3])
if ARGV[4] == '1' then redis.call('HSET', KEYS[1], 'lb', ARGV[2]) end
if ARGV[5] == '1' then redis.call('HSET', KEYS[1], 'lo', ARGV[2]) end
redis.call('HDEL', KEYS[1], ARGV[6])
redis.call('EXPIRE', KEYS[1], ARGV[1])
return 1
`,
);
/**
 * putShownScript for a new message: its id taken from the chat's counter first. ARGV: ttl, the
 * shown JSON, "1" when it has buttons, "1" when it was sent, KEEP_MESSAGES. The id.
 */
const putNewScript = luaScript<"chat", number>(
  "waPutNew",
  ["chat"],
  `
local id = redis.call('HINCRBY', KEYS[1], 'seq', 1)
redis.call('HSET', KEYS[1], 'm:' .. id, ARGV[2])
if ARGV[3] == '1' then redis.call('HSET', KEYS[1], 'lb', id) end
if ARGV[4] == '1' then redis.call('HSET', KEYS[1], 'lo', id) end
redis.call('HDEL', KEYS[1], 'm:' .. (id - tonumber(ARGV[5])))
redis.call('EXPIRE', KEYS[1], ARGV[1])
return id
`,
);
/**
 * ARGV: ttl, the last inbound JSON, "" / "n" / "b" (none, the next id, the next id and the last
 * buttons). {next id or 0} or {next id, lb, lo, lb's rendering}: the inbound recorded, the next
 * id and the newest buttons of one customer message in one round trip (they were three).
 */
const arriveScript = luaScript<"chat", Array<string | number | null>>(
  "waArrive",
  ["chat"],
  `
redis.call('HSET', KEYS[1], 'in', ARGV[2])
local n = 0
if ARGV[3] ~= '' then n = redis.call('HINCRBY', KEYS[1], 'seq', 1) end
redis.call('EXPIRE', KEYS[1], ARGV[1])
if ARGV[3] ~= 'b' then return {n} end
local v = redis.call('HMGET', KEYS[1], 'lb', 'lo')
if not v[1] then return {n} end
return {n, v[1], v[2] or '0', redis.call('HGET', KEYS[1], 'm:' .. v[1]) or ''}
`,
);

/** The newest buttons from the script's {lb, lo, rendering}: null without buttons or when shown over. */
function buttonsOf(lb: unknown, lo: unknown, raw: unknown) {
  if (lb === null || lb === undefined || Number(lo ?? 0) > Number(lb)) return null;
  const shown = parse(shownSchema, typeof raw === "string" ? raw : null);
  return { messageId: Number(lb), choices: shown?.choices ?? [] };
}

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
  const field = (messageId: number) => `m:${messageId}`;
  const known = knownInbounds();
  return {
    async nextMessageId(chatId) {
      return Number(await nextIdScript.run(redis, { chat: k.waChat(chatId) }, TTL_SECONDS));
    },
    async putShown(chatId, messageId, shown, sent) {
      await Promise.all([
        putShownScript.run(
          redis,
          { chat: k.waChat(chatId) },
          TTL_SECONDS,
          messageId,
          JSON.stringify(shown),
          shown.buttons ? "1" : "0",
          // The message shown last (a new rendering of an edited one counts as shown last).
          sent.length > 0 ? "1" : "0",
          field(messageId - KEEP_MESSAGES),
        ),
        ...sent.map((w) => redis.set(k.waWamid(w), `${chatId}:${messageId}`, "EX", TTL_SECONDS)),
      ]);
    },
    async putNew(chatId, shown, sent) {
      const messageId = Number(
        await putNewScript.run(
          redis,
          { chat: k.waChat(chatId) },
          TTL_SECONDS,
          JSON.stringify(shown),
          shown.buttons ? "1" : "0",
          sent.length > 0 ? "1" : "0",
          KEEP_MESSAGES,
        ),
      );
      const value = `${chatId}:${messageId}`;
      await Promise.all(sent.map((w) => redis.set(k.waWamid(w), value, "EX", TTL_SECONDS)));
      return messageId;
    },
    async shown(chatId, messageId) {
      return parse(shownSchema, await redis.hget(k.waChat(chatId), field(messageId)));
    },
    async messageOf(wamid) {
      const raw = await redis.get(k.waWamid(wamid));
      const m = /^(\d+):(\d+)$/.exec(raw ?? "");
      return m ? { chatId: Number(m[1]), messageId: Number(m[2]) } : null;
    },
    async arrive(chatId, last, want) {
      known.put(chatId, last);
      const mode = want === "none" ? "" : want === "next" ? "n" : "b";
      const [n, lb, lo, raw] = await arriveScript.run(
        redis,
        { chat: k.waChat(chatId) },
        TTL_SECONDS,
        JSON.stringify(last),
        mode,
      );
      return { messageId: Number(n), buttons: want === "buttons" ? buttonsOf(lb, lo, raw) : null };
    },
    async lastInbound(chatId) {
      return parse(inboundSchema, await redis.hget(k.waChat(chatId), "in"));
    },
    knownInbound: (chatId) => known.get(chatId),
    async putStatus(wamid, status, at) {
      const added = await putStatusScript.run(
        redis,
        { key: k.waStatus(wamid) },
        TTL_SECONDS,
        status,
        String(at),
      );
      return Number(added) === 1;
    },
    async statuses(wamid) {
      const all = await redis.hgetall(k.waStatus(wamid));
      const out: Partial<Record<DeliveryStatus, number>> = {};
      for (const s of Object.keys(STATUS_RANK) as DeliveryStatus[]) {
        if (all[s] !== undefined) out[s] = Number(all[s]);
      }
      return out;
    },
  };
}
