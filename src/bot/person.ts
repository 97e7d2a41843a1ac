import type { Context, MiddlewareFn } from "grammy";

/**
 * One person, one account, on every channel: a Telegram user linked to a WhatsApp-born account
 * (they registered on Telegram the phone that account writes from, conversations/register/) acts
 * as that account. The update's sender is rewritten in place before anything reads it, so the
 * conversations store it as rewritten and every replay sees the same person; the Telegram id
 * itself stays readable (`telegramIdOf`) for what only Telegram vouches for (a shared contact).
 */

const original = new WeakMap<object, number>();

/** The Telegram user id the update came from, before any link. */
export function telegramIdOf(ctx: Context): number | undefined {
  return original.get(ctx.update) ?? ctx.from?.id;
}

/** A linked user is known for good; an unlinked one is asked again after this long. */
const UNLINKED_MS = 30_000;
const MAX_CACHED = 50_000;

export type SamePerson = MiddlewareFn<Context> & {
  /** Tells this process's cache of a link just made (other processes ask again within 30 s). */
  linked(telegramId: number, personId: number): void;
};

export function samePerson(accounts: {
  personOf(telegramId: number): Promise<number | null>;
}): SamePerson {
  const known = new Map<number, { person: number | null; at: number }>();
  const personOf = async (id: number) => {
    const hit = known.get(id);
    if (hit && (hit.person !== null || Date.now() - hit.at < UNLINKED_MS)) return hit.person;
    const person = await accounts.personOf(id);
    if (known.size >= MAX_CACHED) known.clear();
    known.set(id, { person, at: Date.now() });
    return person;
  };
  const mw: MiddlewareFn<Context> = async (ctx, next) => {
    const from = ctx.from;
    if (from && !from.is_bot) {
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
  });
}
