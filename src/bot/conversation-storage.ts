import { deflateRawSync, inflateRawSync } from "node:zlib";
import type { StorageAdapter } from "grammy";
import type { Message } from "grammy/types";
import type { RedisClient } from "../redis/connection.ts";
import { carryWithRelease } from "./carried-writes.ts";

/**
 * Conversation state in Redis, trimmed and deflated. Conversations v2 keep every update and Bot
 * API answer of a flow so far (whole message objects with the bot's profile and keyboards): 4.5 KB
 * of JSON three steps into a top-up, 2.5 KB trimmed (`trimConversation`), 0.8 KB deflated. Redis
 * memory is what limits open conversations; the deflate and inflate cost 3 to 7% of an update's
 * CPU (README, Performance), less on trimmed input.
 *
 * A stored value starts with a 0x00 marker byte, which JSON text never does; a value without it
 * is read as plain JSON, as written before this adapter (a deploy leaves no conversation
 * unreadable).
 */
const MARKER = 0x00;
/**
 * A 4 KB window and small internal state: a conversation is a few KB, and zlib's defaults (32 KB
 * window, about 256 KB of state per call) made the process's RSS grow with no gain in size.
 * Inflate must use a window at least as large as deflate did. Level 2 instead of zlib's 6: on
 * the states of a mobile top-up (4.5 to 8.8 KB of JSON) a write's deflate takes about 51 µs
 * instead of 76, for 5 to 11% more bytes (1,252 instead of 1,195 three steps in). The level
 * changes nothing for the reader.
 */
const ZLIB = { level: 2, windowBits: 12, memLevel: 5 } as const;

/** A stored value as the adapter wrote it (deflated) or as written before it (plain JSON). */
export function decodeConversation<T>(raw: Buffer | null): T | undefined {
  if (!raw || raw.length === 0) return undefined;
  const text =
    raw[0] === MARKER
      ? inflateRawSync(raw.subarray(1), ZLIB).toString("utf8")
      : raw.toString("utf8");
  return JSON.parse(text) as T;
}

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === "object" && x !== null;

/**
 * The message under a button press as a flow still needs it on replay: without the bot's own
 * profile (`from` of the bot's messages, 376 B each) and without its keyboard (`reply_markup`).
 * The flows read its id and chat, never those two (a replay gets the stored value, the first run
 * the whole one, so a flow reading them would see them only on the first run).
 */
function trimMessage(message: unknown): unknown {
  if (!isObject(message)) return message;
  const botFrom = isObject(message.from) && message.from.is_bot === true;
  if (!botFrom && !("reply_markup" in message)) return message;
  const { reply_markup: _keyboard, from, ...rest } = message;
  return botFrom ? rest : { ...rest, from };
}

/**
 * The type of what a flow may read of the bot's own sent message: all a replay has of it. A
 * flow keeps a sent message as this, so reading its words does not compile (review s26-b).
 */
export type SentMessage = Pick<Message, "message_id" | "date" | "chat">;

/**
 * The bot's own message as a Bot API call answered it (sendMessage, editMessageText, a
 * document), as a flow still needs it on replay: its id and chat, and its date (a Message has
 * one). What the flows read of such a message is its id and chat: prompt-loop.ts strips and
 * edits a question by them and matches a button press to it by the id, checkout.ts names the
 * receipt by its id; nothing reads its words, keyboard, sender or document (a replay gets the
 * stored value, the first run the whole one, so a flow reading them would see them only on the
 * first run). Its words were the largest part of a stored conversation (issue 31 target 6: 115
 * of about 790 B, deflated, at a mobile top-up's amount question), and every question adds one.
 */
function trimAnswer(message: unknown): unknown {
  if (!isObject(message) || typeof message.message_id !== "number") return message;
  const { message_id, date, chat } = message;
  return { message_id, date, chat };
}

/**
 * The state as stored: every Bot API answer's message trimmed (`trimAnswer`), and the message
 * under a button press (`trimMessage`), everything else (the updates' own fields, `external`
 * results) as it is. A new object where something was trimmed; the state handed in is not
 * changed.
 */
function trimConversation(value: unknown): unknown {
  if (!isObject(value) || !isObject(value.state)) return value;
  const state: Json = {};
  for (const [id, stack] of Object.entries(value.state)) {
    state[id] = Array.isArray(stack) ? stack.map(trimReplay) : stack;
  }
  return { ...value, state };
}

function trimReplay(conversation: unknown): unknown {
  if (!isObject(conversation) || !isObject(conversation.replay)) return conversation;
  const { send, receive } = conversation.replay;
  if (!Array.isArray(send) || !Array.isArray(receive)) return conversation;
  const trimmed = receive.map((op: unknown) => {
    if (!isObject(op) || typeof op.send !== "number") return op;
    const kind = (send[op.send] as { payload?: unknown } | undefined)?.payload;
    const value = op.returnValue;
    if (!isObject(value)) return op;
    // An update waited for: the message whose button was pressed.
    if (kind === "wait") {
      const cb = value.callback_query;
      if (!isObject(cb) || !isObject(cb.message)) return op;
      return {
        ...op,
        returnValue: { ...value, callback_query: { ...cb, message: trimMessage(cb.message) } },
      };
    }
    // A Bot API call's answer ({ ok, res: { ok, result } }); `external` results are ours, kept.
    if (kind === "external" || value.ok !== true || !isObject(value.res)) return op;
    const res = value.res;
    return { ...op, returnValue: { ...value, res: { ...res, result: trimAnswer(res.result) } } };
  });
  return { ...conversation, replay: { ...conversation.replay, receive: trimmed } };
}

export function deflatedRedisStorage<T>(redis: RedisClient, ttlSeconds: number): StorageAdapter<T> {
  return {
    async read(key) {
      return decodeConversation<T>(await redis.getBuffer(key));
    },
    async write(key, value) {
      const json = JSON.stringify(trimConversation(value));
      const packed = deflateRawSync(Buffer.from(json, "utf8"), ZLIB);
      const stored = Buffer.concat([Buffer.of(MARKER), packed]);
      // With the chat's turn release when the update has one (carried-writes.ts): saved before
      // the turn is freed, in the same script.
      if (carryWithRelease([{ command: "set", key, args: [stored, "EX", ttlSeconds] }])) return;
      await redis.set(key, stored, "EX", ttlSeconds);
    },
    async delete(key) {
      if (carryWithRelease([{ command: "del", key, args: [] }])) return;
      await redis.del(key);
    },
  };
}
