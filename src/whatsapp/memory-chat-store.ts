import { KEEP_MESSAGES } from "./chat-scripts.ts";
import {
  bitsOf,
  CHAT_TTL_SECONDS,
  type LastInbound,
  type Shown,
  STATUS_BIT,
  type WaChatStore,
} from "./chat-store.ts";

/**
 * The chat store in this process's memory (`npm start` without Redis; tests). Bounded as the Redis
 * store's hash is (chat-scripts.ts): a chat not written for CHAT_TTL_SECONDS is forgotten whole
 * (Redis: the hash's EXPIRE, set again by every write), and a chat keeps the records of its newest
 * KEEP_MESSAGES messages, besides its newest with buttons and the few newest whose buttons are
 * still there (Redis: the sweep), with the renderings and statuses that name them.
 */

/** Records older than KEEP whose buttons are still there, kept besides the newest buttons. */
const KEEP_LIVE = 4;

interface MemoryChat {
  seq: number;
  shown: Map<number, Shown>;
  /** A sent wamid: the message it renders. */
  wamids: Map<string, number>;
  /** A sent wamid's delivery statuses (STATUS_BIT). */
  statuses: Map<string, number>;
  lastButtoned?: number;
  lastShown?: number;
  inbound?: LastInbound;
  /** When it is forgotten unless written again (the hash's TTL). */
  expiresAt: number;
}

/** The records past KEEP_MESSAGES go, but for the newest buttons and KEEP_LIVE with buttons. */
function trim(chat: MemoryChat): void {
  if (chat.shown.size <= 2 * KEEP_MESSAGES + 16) return;
  const below = chat.seq - KEEP_MESSAGES;
  const live = [...chat.shown.entries()]
    .filter(([id, s]) => id <= below && s.buttons !== "" && id !== chat.lastButtoned)
    .map(([id]) => id)
    .sort((a, b) => b - a)
    .slice(0, KEEP_LIVE);
  const keep = new Set([...live, ...(chat.lastButtoned === undefined ? [] : [chat.lastButtoned])]);
  for (const id of chat.shown.keys()) if (id <= below && !keep.has(id)) chat.shown.delete(id);
  for (const [wamid, id] of chat.wamids) {
    if (chat.shown.has(id)) continue;
    chat.wamids.delete(wamid);
    chat.statuses.delete(wamid);
  }
}

export function createMemoryWaChatStore(opts: { now?: () => number } = {}): WaChatStore {
  const now = opts.now ?? Date.now;
  /** Least recently written first: the expired ones are at the front. */
  const chats = new Map<number, MemoryChat>();
  const expire = () => {
    const t = now();
    for (const [id, chat] of chats) {
      if (chat.expiresAt > t) break;
      chats.delete(id);
    }
  };
  /** The chat as it is now (undefined: never written, or expired). */
  const read = (chatId: number) => {
    expire();
    return chats.get(chatId);
  };
  /** The chat to write: its TTL starts again. */
  const write = (chatId: number): MemoryChat => {
    expire();
    const chat = chats.get(chatId) ?? {
      seq: 0,
      shown: new Map(),
      wamids: new Map(),
      statuses: new Map(),
      expiresAt: 0,
    };
    chats.delete(chatId);
    chat.expiresAt = now() + CHAT_TTL_SECONDS * 1000;
    chats.set(chatId, chat);
    return chat;
  };
  const putShown = (chatId: number, messageId: number, shown: Shown, sent: string[]) => {
    const chat = write(chatId);
    const before = chat.shown.get(messageId);
    const text = shown.secret ? null : (shown.text ?? before?.text ?? null);
    const choices = shown.secret ? [] : shown.choices;
    chat.shown.set(messageId, { ...shown, text, choices });
    for (const w of sent) chat.wamids.set(w, messageId);
    if (shown.buttons) chat.lastButtoned = messageId;
    if (sent.length > 0) chat.lastShown = messageId;
    trim(chat);
  };
  return {
    async forgetButtons(chatId) {
      const chat = read(chatId);
      if (chat) chat.lastButtoned = undefined;
    },
    async nextMessageId(chatId) {
      const chat = write(chatId);
      chat.seq += 1;
      return chat.seq;
    },
    async putShown(chatId, messageId, shown, sent) {
      putShown(chatId, messageId, shown, sent);
    },
    async putNew(chatId, shown, sent) {
      const chat = write(chatId);
      chat.seq += 1;
      putShown(chatId, chat.seq, shown, sent);
      return chat.seq;
    },
    async shown(chatId, messageId) {
      const s = read(chatId)?.shown.get(messageId);
      return s ? { text: s.text, buttons: s.buttons, seen: s.seen } : null;
    },
    async messageOf(chatId, wamid) {
      return read(chatId)?.wamids.get(wamid) ?? null;
    },
    async arrive(chatId, last, want) {
      const chat = write(chatId);
      chat.inbound = last;
      const messageId = want === "none" ? 0 : chat.seq + 1;
      if (messageId > 0) chat.seq = messageId;
      if (want !== "buttons") return { messageId, buttons: null };
      const lb = chat.lastButtoned;
      if (lb === undefined || (chat.lastShown ?? 0) > lb) return { messageId, buttons: null };
      // As Redis keeps them: the labels are not (a typed number needs only the data).
      const choices = (chat.shown.get(lb)?.choices ?? []).map((c) => ({ ...c, label: "" }));
      return { messageId, buttons: choices.length > 0 ? { messageId: lb, choices } : null };
    },
    async lastInbound(chatId) {
      return read(chatId)?.inbound ?? null;
    },
    knownInbound(chatId) {
      return read(chatId)?.inbound ?? null;
    },
    async putStatus(chatId, wamid, status) {
      const chat = write(chatId);
      const known = chat.statuses.get(wamid) ?? 0;
      if ((known & STATUS_BIT[status]) !== 0) return false;
      chat.statuses.set(wamid, known | STATUS_BIT[status]);
      return true;
    },
    async statuses(chatId, wamid) {
      return bitsOf(read(chatId)?.statuses.get(wamid) ?? 0);
    },
  };
}
