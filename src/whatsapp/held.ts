import { AsyncLocalStorage } from "node:async_hooks";
import type { Update } from "grammy/types";
import type { Phone } from "../accounts/phone.ts";

/**
 * A WhatsApp chat whose number another channel's account registered (a Telegram user shared it
 * as their contact), with no proven link to it: the chat acts as itself, with nothing, and every
 * message of it is answered by the link gate (conversations/register/link-gate.ts) until it proves it holds that
 * account too (a code sent to its Telegram chat) or takes the number for an account of its own.
 * Told from the inbound handler to the gate on the update object itself (the same object the bot
 * handles), so no store is read twice.
 */
export interface Held {
  /** The account that registered the number. */
  ownerId: number;
  phone: Phone;
}

const held = new WeakMap<object, Held>();

export function markHeld(update: Update, h: Held): void {
  held.set(update, h);
}

export function heldOf(update: Update): Held | undefined {
  return held.get(update);
}

/**
 * Who wrote, as WhatsApp names the person (not the number, which Meta hands to the next holder of
 * the SIM): the business-scoped user id when the payload carries one (Meta issues a new one when a
 * number changes hands), else the profile name, a weak stand-in (a new holder may choose the same
 * name) kept until Meta sends user ids. Null when the message carries neither. A link is sealed
 * with it (accounts/links.ts) and holds only while the sender's is the same.
 */
export function senderSeal(m: { userId?: string; name?: string }): string | null {
  if (m.userId) return `u:${m.userId}`;
  if (m.name) return `n:${m.name}`;
  return null;
}

/** The Meta user id a seal names (`senderSeal`), or null for a profile name's seal or none. */
export const sealUserId = (seal: string | undefined): string | null =>
  seal?.startsWith("u:") ? seal.slice(2) : null;

const sealed = new WeakMap<object, string>();

/** The sender's seal, told to the link gate on the update (a code typed seals the link with it). */
export function markSender(update: Update, seal: string): void {
  sealed.set(update, seal);
}

export function senderOf(update: Update): string | undefined {
  return sealed.get(update);
}

/**
 * A sender whose Meta user id is not the one the number's WhatsApp-born account belongs to (a
 * recycled SIM's next holder, or the owner with a re-issued id): frozen until an admin decides
 * (/waid), told so by the gate (conversations/register/waid.ts), nothing else runs. `released`:
 * an admin released the number from that account already (the chat's own account: it stays the
 * old holder's) and the message named no user id, so no fresh account could be opened for it
 * (whatsapp/inbound.ts `freshAccount`); the sender may write again, or register on Telegram.
 */
export interface WaHeld {
  account: number;
  phone: Phone;
  released?: boolean;
}

const waHeld = new WeakMap<object, WaHeld>();

export function markWaHeld(update: Update, h: WaHeld): void {
  waHeld.set(update, h);
}

export function waHeldOf(update: Update): WaHeld | undefined {
  return waHeld.get(update);
}

/** The handling of one WhatsApp chat's message: its chat, and whether its answers owe (below). */
interface Answering {
  chatId: number;
  /** Unknown until its first send: whether the chat owes answers (whatsapp/router-owed.ts). */
  behind?: boolean;
}

const answering = new AsyncLocalStorage<Answering>();

/**
 * Runs the handling of a message from WhatsApp chat `chatId`: what it sends to that chat answers
 * whoever holds the number now (the sender just found: the held sender gets only the gate's
 * answer, the account's own user id its flows), so the router lets it through a pending hold;
 * anything else for the chat (a push, a reminder, another chat's flow) is not an answer.
 */
export const answeringIn = <T>(chatId: number, run: () => Promise<T>): Promise<T> =>
  answering.run({ chatId }, run);

/** The WhatsApp chat whose message is being handled in this call, if any. */
export const answeredChat = (): number | undefined => answering.getStore()?.chatId;

/**
 * The handling of a message of `chatId` this call is part of, if any: its answers may be owed
 * (router-owed.ts), and it remembers whether the chat owes some (one read per message).
 */
export const answeringOf = (chatId: number): Answering | undefined => {
  const a = answering.getStore();
  return a?.chatId === chatId ? a : undefined;
};
