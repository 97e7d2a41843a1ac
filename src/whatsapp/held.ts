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
