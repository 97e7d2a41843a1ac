import { createHash, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import type { RedisClient } from "../redis/connection.ts";
import { keyspace } from "../redis/keyspace.ts";
import { isWhatsAppChat } from "./chat-kind.ts";
import { dropOffer, dropStub, swapLink, unlinkFrom } from "./link-scripts.ts";
import { type Phone, phoneSchema } from "./phone.ts";

/**
 * One person on two channels, proven: a channel (a Telegram user, or a WhatsApp chat) acts as an
 * account registered on the other channel only after typing a one-time code sent to that account's
 * own chat. A matching phone number proves nothing on its own: Telegram never re-checks the
 * number an account carries (a SIM given up and recycled stays on the old account), while
 * WhatsApp proves only who holds it now. The code proves the person holds both chats today.
 *
 * Roles never travel through a link: they belong to the channel id (bot/person.ts, `channelIdOf`).
 */

/** How long a code may be typed. */
export const LINK_CODE_MS = 10 * 60_000;
/** Wrong codes before the offer is dropped (a new code must be asked for). */
export const LINK_MAX_TRIES = 5;
/** Codes sent for one channel per hour: each new code gives fresh tries, so asking is bounded too. */
export const LINK_MAX_SENDS = 3;
const SENDS_WINDOW_MS = 60 * 60_000;

/** Six digits, uniformly drawn. */
export function newLinkCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

/** The code as stored: salted SHA-256 (the code itself is never written). */
export function hashLinkCode(salt: string, code: string): string {
  return createHash("sha256").update(`${salt}:${code}`).digest("hex");
}

/** A typed code, read loosely ("482 913", "482-913"): six digits, or null. */
export function readLinkCode(text: string): string | null {
  const digits = text.replace(/[\s-]/g, "");
  return /^\d{6}$/.test(digits) ? digits : null;
}

/**
 * Whether a text carries a link code: the message sent to the owner's chat shows the code, then
 * the command to type with it ("…: 482913 … link 482913"). A channel that records what it sent
 * (WhatsApp's chat record) keeps no words of it, as for a login link (the example "123456" of
 * other texts appears once and is not matched).
 */
export const carriesLinkCode = (text: string): boolean => /(\d{6})[\s\S]*\blink \1\b/.test(text);

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && timingSafeEqual(x, y);
}

/** What a channel was offered: the account to act as, by the phone both share. */
export interface LinkOffer {
  personId: number;
  phone: Phone;
}

export type OfferResult = { ok: true; code: string } | { ok: false; code: "too_many_codes" };
export type RedeemResult =
  | ({ ok: true } & LinkOffer)
  | { ok: false; code: "no_offer" | "wrong" | "too_many_tries"; triesLeft?: number };

/**
 * A proven link, with who proved it where the channel's id is not the person (a WhatsApp chat's id
 * is its phone number, which changes hands): the sender's identity as WhatsApp gave it at link
 * time (whatsapp/held.ts `senderSeal`), null for a link kept without one.
 */
export interface SealedLink {
  personId: number;
  seal: string | null;
  /**
   * Set while the chat's last writer did not match the seal (whatsapp/inbound.ts, gated): the link
   * stands, but names nobody who reads the chat now, so nothing of the person's is sent there
   * (system/whatsapp.ts `linkNow`) until the sealing sender writes again (review s25-f, B1).
   */
  suspended?: true;
  /**
   * The Meta user ids the link gate held while the link was suspended: none of them may re-seal a
   * name-sealed link by its first user id (whatsapp/inbound.ts `sealedBy`), or a holder who renamed
   * to the sealer's name would take it (review s25-g, N1).
   */
  heldUsers?: string[];
  /** More than `HELD_USERS_KEPT` were held: no first user id re-seals the link (a new code does). */
  heldAny?: true;
}

/** How many held user ids a suspended mark keeps before it stands for any user id. */
const HELD_USERS_KEPT = 4;
/** The mark's list standing for any user id (a kept one is encoded: never a bare `*`). */
const ANY_HELD = "*";
type HeldMark = readonly string[] | typeof ANY_HELD;

// A user id in the mark: no `|` (the seal's start), `,` (the list's), `!` or `*` left bare.
const markUser = (u: string) =>
  encodeURIComponent(u).replace(/[!*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const unmarkUser = (u: string) => {
  try {
    return decodeURIComponent(u);
  } catch {
    return u;
  }
};

/**
 * The stored value: the person id, `!` while suspended (then the held user ids, `,`-separated, or
 * `*`), then `|` and the seal when there is one. The mark sits right after the id so a reader
 * without it reads no link at all (fails safe).
 */
function linkValue(personId: number, seal?: string | null, held?: HeldMark): string {
  const mark =
    held === undefined ? "" : `!${held === ANY_HELD ? ANY_HELD : held.map(markUser).join(",")}`;
  return `${personId}${mark}${seal === undefined || seal === null ? "" : `|${seal}`}`;
}

function parseLink(raw: string | null | undefined): SealedLink | null {
  if (raw === null || raw === undefined) return null;
  const bar = raw.indexOf("|");
  const head = bar < 0 ? raw : raw.slice(0, bar);
  const bang = head.indexOf("!");
  const id = bang < 0 ? head : head.slice(0, bang);
  // The id after the mark is stripped: "!" alone is no link (review s25-g, N4).
  const personId = Number(id);
  if (id === "" || !Number.isSafeInteger(personId)) return null;
  const link: SealedLink = { personId, seal: bar < 0 ? null : raw.slice(bar + 1) };
  if (bang < 0) return link;
  link.suspended = true;
  const held = head.slice(bang + 1);
  if (held === ANY_HELD) link.heldAny = true;
  else if (held !== "") link.heldUsers = held.split(",").map(unmarkUser);
  return link;
}

/** The mark `was` is stored with (undefined: none). */
const markOf = (was: SealedLink): HeldMark | undefined =>
  !was.suspended ? undefined : was.heldAny ? ANY_HELD : (was.heldUsers ?? []);

/** The mark once `user` is held too (any user id past `HELD_USERS_KEPT`). */
function heldWith(was: HeldMark, user: string | undefined): HeldMark {
  if (user === undefined || was === ANY_HELD || was.includes(user)) return was;
  return was.length >= HELD_USERS_KEPT ? ANY_HELD : [...was, user];
}

/** The value `was` is stored as, and the same link with the mark set (`user` held too) or cleared. */
const suspendedValues = (was: SealedLink, suspended: boolean, user?: string) =>
  [
    linkValue(was.personId, was.seal, markOf(was)),
    linkValue(was.personId, was.seal, suspended ? heldWith(markOf(was) ?? [], user) : undefined),
  ] as const;

export interface LinkStore {
  /** The person a channel acts as (a proven link), else null. */
  linkOf(channelId: number): Promise<number | null>;
  /** The link with the identity that proved it (a WhatsApp chat's link holds only for that sender). */
  sealedLinkOf(channelId: number): Promise<SealedLink | null>;
  /**
   * Drops a channel's link (it acts as itself again); true when there was one. With `personId`,
   * only while the link is to that person (the account's owner ends a join made to it: a link
   * written elsewhere since stays).
   */
  unlink(channelId: number, personId?: number): Promise<boolean>;
  /** A new code for the channel (replacing any earlier one), unless too many were sent this hour. */
  offer(channelId: number, offer: LinkOffer): Promise<OfferResult>;
  /**
   * A typed code: the tries are counted before the comparison, and a right code is used once (a
   * second "link" with it finds no offer). The link itself is written by `link`.
   */
  redeem(channelId: number, code: string): Promise<RedeemResult>;
  /** Writes the link; `seal`: who proved it, for a channel whose id may pass to another person. */
  link(channelId: number, personId: number, seal?: string): Promise<void>;
  /**
   * Sets (true) or clears the link's `suspended` mark while the link is still `was` (compare and
   * set: a link written or dropped since is left as it is); true when written. `heldUser`: the
   * held writer's Meta user id, kept in the mark (`SealedLink.heldUsers`).
   */
  suspend(
    channelId: number,
    was: SealedLink,
    suspended: boolean,
    heldUser?: string,
  ): Promise<boolean>;
  /**
   * The Telegram chats joined to a person (no index: the links are scanned). Asked only for an
   * account whose WhatsApp number was released (accounts/released-reach.ts), where its pushes go
   * instead. A WhatsApp chat is never named: one is the person's only while its number is theirs
   * (released-reach's `phone`); a link beyond that is stale, its number maybe a stranger's now.
   */
  channelsOf(personId: number): Promise<number[]>;
}

interface Pending extends LinkOffer {
  salt: string;
  hash: string;
  tries: number;
  until: number;
}

function pendingOf(offer: LinkOffer, code: string, now: number): Pending {
  const salt = randomBytes(8).toString("hex");
  return { ...offer, salt, hash: hashLinkCode(salt, code), tries: 0, until: now + LINK_CODE_MS };
}

export function createMemoryLinks(now: () => number = Date.now): LinkStore {
  const links = new Map<number, string>();
  const pending = new Map<number, Pending>();
  const sends = new Map<number, { n: number; until: number }>();
  return {
    async linkOf(channelId) {
      return parseLink(links.get(channelId))?.personId ?? null;
    },
    async sealedLinkOf(channelId) {
      return parseLink(links.get(channelId));
    },
    async unlink(channelId, personId) {
      if (personId !== undefined && parseLink(links.get(channelId))?.personId !== personId)
        return false;
      return links.delete(channelId);
    },
    async link(channelId, personId, seal) {
      links.set(channelId, linkValue(personId, seal));
    },
    async suspend(channelId, was, suspended, heldUser) {
      const [from, to] = suspendedValues(was, suspended, heldUser);
      if (links.get(channelId) !== from) return false;
      links.set(channelId, to);
      return true;
    },
    async channelsOf(personId) {
      return [...links]
        .filter(([c, v]) => !isWhatsAppChat(c) && parseLink(v)?.personId === personId)
        .map(([c]) => c);
    },
    async offer(channelId, offer) {
      const s = sends.get(channelId);
      const count = s && s.until > now() ? s.n + 1 : 1;
      sends.set(channelId, {
        n: count,
        until: s && s.until > now() ? s.until : now() + SENDS_WINDOW_MS,
      });
      if (count > LINK_MAX_SENDS) return { ok: false, code: "too_many_codes" };
      const code = newLinkCode();
      pending.set(channelId, pendingOf(offer, code, now()));
      return { ok: true, code };
    },
    async redeem(channelId, code) {
      const p = pending.get(channelId);
      if (!p || p.until <= now()) return { ok: false, code: "no_offer" };
      p.tries += 1;
      return judge(p, code, () => pending.delete(channelId));
    },
  };
}

/** The verdict on a counted try; `drop` removes the offer (used, or out of tries). */
async function judge(p: Pending, code: string, drop: () => unknown): Promise<RedeemResult> {
  if (p.tries > LINK_MAX_TRIES) {
    await drop();
    return { ok: false, code: "too_many_tries" };
  }
  if (!sameHash(hashLinkCode(p.salt, code), p.hash)) {
    if (p.tries >= LINK_MAX_TRIES) {
      await drop();
      return { ok: false, code: "too_many_tries" };
    }
    return { ok: false, code: "wrong", triesLeft: LINK_MAX_TRIES - p.tries };
  }
  await drop();
  return { ok: true, personId: p.personId, phone: p.phone };
}

export function createRedisLinks(opts: { redis: RedisClient; prefix: string }): LinkStore {
  const { redis } = opts;
  const k = keyspace(opts.prefix);
  return {
    async linkOf(channelId) {
      return parseLink(await redis.hget(k.accountLinks, String(channelId)))?.personId ?? null;
    },
    async sealedLinkOf(channelId) {
      return parseLink(await redis.hget(k.accountLinks, String(channelId)));
    },
    async unlink(channelId, personId) {
      if (personId === undefined)
        return (await redis.hdel(k.accountLinks, String(channelId))) === 1;
      const links = { links: k.accountLinks };
      return (await unlinkFrom.run(redis, links, String(channelId), String(personId))) === 1;
    },
    async link(channelId, personId, seal) {
      await redis.hset(k.accountLinks, String(channelId), linkValue(personId, seal));
    },
    async suspend(channelId, was, suspended, heldUser) {
      const [from, to] = suspendedValues(was, suspended, heldUser);
      return (
        (await swapLink.run(redis, { links: k.accountLinks }, String(channelId), from, to)) === 1
      );
    },
    async channelsOf(personId) {
      const found: number[] = [];
      let cursor = "0";
      do {
        const [next, flat] = await redis.hscan(k.accountLinks, cursor, "COUNT", 1000);
        for (let i = 0; i + 1 < flat.length; i += 2)
          if (parseLink(flat[i + 1])?.personId === personId && !isWhatsAppChat(Number(flat[i])))
            found.push(Number(flat[i]));
        cursor = next;
      } while (cursor !== "0");
      return found;
    },
    async offer(channelId, offer) {
      const sendsKey = k.accountLinkSends(channelId);
      const [[, count]] = (await redis
        .multi()
        .incr(sendsKey)
        .pexpire(sendsKey, SENDS_WINDOW_MS, "NX")
        .exec()) as [[unknown, number]];
      if (count > LINK_MAX_SENDS) return { ok: false, code: "too_many_codes" };
      const code = newLinkCode();
      const p = pendingOf(offer, code, Date.now());
      const key = k.accountLinkCode(channelId);
      await redis
        .multi()
        .del(key)
        .hset(key, {
          personId: String(p.personId),
          phone: p.phone,
          salt: p.salt,
          hash: p.hash,
          tries: "0",
        })
        .pexpire(key, LINK_CODE_MS)
        .exec();
      return { ok: true, code };
    },
    async redeem(channelId, code) {
      const key = k.accountLinkCode(channelId);
      // Counted first, in one step with the read: two tries at once cannot both be the fifth.
      const [[, tries], [, fields]] = (await redis
        .multi()
        .hincrby(key, "tries", 1)
        .hgetall(key)
        .exec()) as [[unknown, number], [unknown, Record<string, string>]];
      const phone = phoneSchema.safeParse(fields.phone);
      if (!fields.hash || !fields.salt || !phone.success) {
        // A stub (no offer, or it expired) goes; an offer written since stays. A damaged one
        // (a hash without its phone or salt) goes too: no code could ever match it.
        if (!fields.hash) await dropStub.run(redis, { offer: key });
        else await redis.del(key);
        return { ok: false, code: "no_offer" };
      }
      const p: Pending = {
        personId: Number(fields.personId),
        phone: phone.data,
        salt: fields.salt,
        hash: fields.hash,
        tries,
        until: Number.POSITIVE_INFINITY,
      };
      // A right code is used once: of two tries at once with it, only the one that deletes wins.
      let dropped = false;
      const r = await judge(p, code, async () => {
        dropped = (await dropOffer.run(redis, { offer: key }, p.hash)) === 1;
      });
      return r.ok && !dropped ? { ok: false, code: "no_offer" } : r;
    },
  };
}
