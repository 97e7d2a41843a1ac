import type { Context, MiddlewareFn } from "grammy";
import { isWhatsAppChat } from "../whatsapp/chat-ids.ts";

/**
 * One person, one account, on every channel: a Telegram user linked to a WhatsApp-born account
 * (with a code sent to that WhatsApp chat and typed here: accounts/links.ts) acts as that
 * account. The update's sender is rewritten in place before anything reads it, so the
 * conversations store it as rewritten and every replay sees the same person; the Telegram id
 * itself stays readable (`telegramIdOf`) for what only Telegram vouches for (a shared contact)
 * and for the role (`channelIdOf`).
 */

const original = new WeakMap<object, number>();

/** The Telegram user id the update came from, before any link. */
export function telegramIdOf(ctx: Context): number | undefined {
  return original.get(ctx.update) ?? ctx.from?.id;
}

/**
 * The channel's own identity: the WhatsApp chat id on WhatsApp (its number, as ADMIN_IDS and
 * AGENT_IDS name it with `wa:`), the Telegram user id on Telegram, whoever either acts as. Roles
 * are read from it and never from the person (bot/deps.ts `roleIn`): a link, or a number that one
 * channel registered, must not make the other channel's holder an admin or an agent.
 */
export function channelIdOf(ctx: Context): number | undefined {
  const chat = ctx.chat?.id;
  if (chat !== undefined && isWhatsAppChat(chat)) return chat;
  return telegramIdOf(ctx);
}

/**
 * How long this process trusts that a user has no link: a link made in another process (a code
 * typed there) holds here within this long. A link found is read again for every update: a join
 * ended elsewhere (its account's owner, from the WhatsApp chat) must not leave this chat spending
 * that account's balance after the owner was told it ended (h-unlink).
 */
const KNOWN_MS = 30_000;
const MAX_CACHED = 50_000;

export type SamePerson = MiddlewareFn<Context> & {
  /** Tells this process's cache of a link just made (read again at each update anyway). */
  linked(telegramId: number, personId: number): void;
  /** Tells this process's cache of a link just ended. */
  unlinked(telegramId: number): void;
};

export function samePerson(
  links: { linkOf(channelId: number): Promise<number | null> },
  /** Agents and admins act as themselves, always: their float and rights are their channel's. */
  isStaff: (telegramId: number) => boolean,
): SamePerson {
  const known = new Map<number, { person: number | null; at: number }>();
  const personOf = async (id: number) => {
    const hit = known.get(id);
    if (hit && hit.person === null && Date.now() - hit.at < KNOWN_MS) return null;
    const person = await links.linkOf(id);
    if (known.size >= MAX_CACHED) known.clear();
    known.set(id, { person, at: Date.now() });
    return person;
  };
  const mw: MiddlewareFn<Context> = async (ctx, next) => {
    const from = ctx.from;
    // A WhatsApp update names its person already (whatsapp/inbound.ts weighs the chat's link).
    const wa = ctx.chat !== undefined && isWhatsAppChat(ctx.chat.id);
    if (from && !from.is_bot && !wa && !isStaff(from.id)) {
      const person = await personOf(from.id);
      if (person !== null && person !== from.id) {
        original.set(ctx.update, from.id);
        for (const part of Object.values(ctx.update) as Array<{ from?: { id: number } }>) {
          if (part && typeof part === "object" && part.from) part.from.id = person;
        }
      }
    }
    await next();
  };
  return Object.assign(mw, {
    linked(telegramId: number, personId: number) {
      known.set(telegramId, { person: personId, at: Date.now() });
    },
    unlinked(telegramId: number) {
      known.set(telegramId, { person: null, at: Date.now() });
    },
  });
}
