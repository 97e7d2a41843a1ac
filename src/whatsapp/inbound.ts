import type { Update } from "grammy/types";
import type { SealedLink } from "../accounts/links.ts";
import { type Phone, phoneSchema } from "../accounts/phone.ts";
import type { ProfileInput } from "../accounts/store.ts";
import type { WaHold } from "../accounts/wa-identity.ts";
import type { Logger } from "../logger.ts";
import { isFreshWaAccount, WA_FRESH_BASE } from "./chat-ids.ts";
import type { ArrivedPerson, Choice, WaChatStore } from "./chat-store.ts";
import { answeringIn, markHeld, markSender, markWaHeld, senderSeal, type WaHeld } from "./held.ts";
import type { InboundItem } from "./inbound-queue.ts";
import type { WaInboundMessage } from "./types.ts";
import { updateOf } from "./update.ts";

/**
 * One customer message, taken from the queue, handed to the chat engine: who it is (the chat's own
 * account, registered as it first writes: WhatsApp has verified the number; or the Telegram
 * account it proved it is with a code: `personOf`), the
 * 24-hour window refreshed, the message marked read with "typing…" while the bot works, and a tap
 * (or a number typed where a numbered list was shown) turned into a press of the button it stands for.
 */

export interface InboundDeps {
  store: WaChatStore;
  accounts: {
    /** Registers the phone unless another owns it: null when registered, else that owner. */
    claimPhone(userId: number, phone: Phone, who: ProfileInput): Promise<number | null>;
    phoneOf(userId: number): Promise<Phone | null>;
    /** The Meta user id a WhatsApp-born account belongs to: recorded, else this one (first use). */
    adoptWaUser(userId: number, waUserId: string): Promise<string>;
    /** The Meta user id recorded for an account, if any (no adoption). */
    waUserOf(userId: number): Promise<string | null>;
    /**
     * Records that another Meta user id wrote from the account's number (until an admin decides);
     * null when the account no longer owns the number (nothing recorded).
     */
    holdWa(userId: number, hold: WaHold): Promise<WaHold | null>;
    /** The hold waiting on the account, if any. */
    waHoldOf(userId: number): Promise<WaHold | null>;
    /**
     * A new account for a released number's next holder (`base` + a counter's n: chat-ids.ts),
     * never an id in use, recorded as the Meta user id's.
     */
    openWaFresh(base: number, waUserId: string): Promise<number>;
    links: {
      sealedLinkOf(channelId: number): Promise<SealedLink | null>;
      unlink(channelId: number): Promise<boolean>;
      link(channelId: number, personId: number, seal?: string): Promise<void>;
      suspend(
        channelId: number,
        was: SealedLink,
        suspended: boolean,
        heldUser?: string,
      ): Promise<boolean>;
    };
    /** The phone's owner and the language of whom it names (else of `orUserId`), one round trip. */
    ownerAndLocale(phone: Phone, orUserId: number): Promise<ArrivedPerson>;
  };
  handleUpdate: (update: Update) => Promise<void>;
  /** Whether a chat id is an agent's or an admin's (AGENT_IDS, ADMIN_IDS with `wa:`). */
  isStaff: (chatId: number) => boolean;
  markRead: (wamid: string) => Promise<void>;
  typedChoice: (text: string, choices: Choice[]) => string | null;
  commands: ReadonlySet<string>;
  now: () => number;
  logger: Logger;
  /**
   * The admins' alert that another Meta user id writes from a WhatsApp-born account's number:
   * durable (the notifier's outbox) and once per hold (account, user id, the hold's first time:
   * a hold that comes again after a decision is alerted again); absent, none is sent.
   */
  alertWaHold?: (account: number, hold: WaHold) => Promise<void>;
  /**
   * Told who a chat's person is once known (the router's locale lookup then need not ask), with
   * their language, read with the person (null: none set).
   */
  personFound?: (chatId: number, personId: number, locale: string | null, mark?: number) => void;
  /** Taken before the arrival reads the language: `personFound` then knows whether a set came since. */
  localeMark?: () => number;
  /**
   * Ends the chat's flow, session and idle deadline (bot/chat-state.ts), when a fresh account
   * opens in it: whatever the chat was doing was the released account's.
   */
  forgetChat?: (chatId: number) => Promise<void>;
}

/**
 * The person behind a phone. A staff chat (its own id in ADMIN_IDS or AGENT_IDS) acts as itself,
 * always: its role, float and rights are this chat's. A WhatsApp-born account is the chat itself,
 * registered on its first message, only if nobody registered the number meanwhile (`claimPhone`),
 * and only for the Meta user id it belongs to (`ownAccount`).
 * A number another channel's account registered is acted as only through a proven link (a code
 * sent to that account's chat: accounts/links.ts); without one the chat is `held` and answered by
 * the link gate. A matching number alone never hands over an account: the Telegram account that
 * registered it may be a stale holder of a recycled SIM, and the sender its new holder.
 */
async function personOf(
  deps: InboundDeps,
  chatId: number,
  m: WaInboundMessage,
  phone: Phone,
  read: ArrivedPerson,
): Promise<Found | null> {
  let owner = read.owner;
  if (deps.isStaff(chatId) && owner !== null) return { personId: chatId };
  if (owner === chatId || (owner !== null && isFreshWaAccount(owner))) {
    const own = await ownAccount(deps, chatId, m, phone, owner, read.waUserId);
    if (own !== "moved") return own;
    // Released since it was read (another instance's /waid): the number has no owner now.
    owner = null;
  }
  if (owner === null) {
    // The chat's own account is bound to another number (it moved): never taken over by whoever
    // writes from this one now.
    const bound = await deps.accounts.phoneOf(chatId);
    if (bound !== null && bound !== phone) return null;
    // The chat's own account belongs to another Meta user id (an admin released the number from
    // it: /waid): it stays its holder's, never claimed again by this sender, who gets a fresh
    // account of their own (`freshAccount`).
    const mine = m.userId
      ? await deps.accounts.adoptWaUser(chatId, m.userId)
      : await deps.accounts.waUserOf(chatId);
    if (mine !== null && mine !== m.userId && !deps.isStaff(chatId)) {
      if (!m.userId)
        return { personId: chatId, waHeld: { account: chatId, phone, released: true } };
      const fresh = await freshAccount(deps, chatId, m, phone, m.userId);
      if (typeof fresh !== "number") return fresh;
      owner = fresh;
    } else {
      owner = await deps.accounts.claimPhone(chatId, phone, {
        name: m.name ?? "",
        channel: "whatsapp",
        ...(m.userId ? { waUserId: m.userId } : {}),
      });
      if (owner === null || owner === chatId || deps.isStaff(chatId)) return { personId: chatId };
    }
  }
  const link = await deps.accounts.links.sealedLinkOf(chatId);
  if (link?.personId === owner) return sealedBy(deps, chatId, m, link, owner);
  return { personId: chatId, held: owner };
}

/**
 * The chat's link to the number's owner, weighed against the sender: theirs only when the sender
 * matches the seal. A sender who does not is held (the link gate answers), and the link is marked
 * suspended before that answer, so the account's own messages (order results, top-up notices,
 * reminders) stop reaching the chat too (system/whatsapp.ts `linkNow`; review s25-f, B1); the
 * sealing sender's next message clears the mark. One write per change of writer, none otherwise.
 * A set and a clear race only if the chat's order breaks (inbound-queue's wait fallback or a
 * takeover); the writes compare against the value as read (review s25-g, N3).
 */
async function sealedBy(
  deps: InboundDeps,
  chatId: number,
  m: WaInboundMessage,
  link: SealedLink,
  owner: number,
): Promise<Found> {
  const { links } = deps.accounts;
  const seal = senderSeal(m);
  if (seal !== null && link.seal === seal) {
    if (link.suspended) await links.suspend(chatId, link, false);
    return { personId: owner };
  }
  // A join sealed by the profile name only (Meta sent no user id then): the first user id seen
  // with that name replaces the name (trust on first use, no weaker than the name itself), so
  // from now on a new holder who picks the same name no longer passes. Never a user id the gate
  // held while the link was suspended: that writer renamed to the sealer's name (review s25-g, N1).
  if (seal?.startsWith("u:") && m.name && link.seal === senderSeal({ name: m.name })) {
    if (!heldBefore(link, m.userId)) {
      await links.link(chatId, owner, seal);
      return { personId: owner };
    }
  }
  // Meta re-issues the user id when the number changes hands: that link is someone else's, for
  // good (a changed profile name may be the same person renamed: held until a new code).
  if (link.seal?.startsWith("u:") && seal?.startsWith("u:")) await links.unlink(chatId);
  else if (!link.suspended || !heldBefore(link, m.userId))
    await links.suspend(chatId, link, true, m.userId || undefined);
  return { personId: chatId, held: owner };
}

/**
 * Whether the suspended link's mark already names `userId` as held (or any user id). A writer
 * without a user id is never recorded: one more write would say nothing.
 */
function heldBefore(link: SealedLink, userId: string | undefined): boolean {
  if (!link.suspended) return false;
  if (link.heldAny) return true;
  return userId ? (link.heldUsers ?? []).includes(userId) : true;
}

type Found = { personId: number; held?: number; waHeld?: WaHeld };

/**
 * A WhatsApp-born account is the sender's only when the Meta user id it belongs to is the
 * message's. That id is the first one seen for the account (trust on first use: its
 * registration's, or for an account registered before ids were recorded, the first message
 * carrying one after this check came): read with the arrival, so the normal path costs no round
 * trip; adopted once per account. A message carrying another user id (Meta re-issues the id when
 * a number changes hands; or the owner's own id was re-issued) is frozen: nothing is opened,
 * moved or shown, the sender is told the account is under review (`waHeld`, answered by the gate),
 * the hold is recorded and the admins are alerted durably, once per (account, user id); an admin
 * decides with /waid. A message without a user id is taken on the number alone, as before Meta
 * sent them, except while a hold waits on the account: then it may be the held sender's (whose
 * next payload lacks the id), so it is held too, with the same answer (one read, only for such
 * a message on an account with a recorded id: the normal path is unchanged).
 */
async function ownAccount(
  deps: InboundDeps,
  chatId: number,
  m: WaInboundMessage,
  phone: Phone,
  owner: number,
  recorded: string | null,
): Promise<Found | "moved"> {
  if (!m.userId) {
    if (recorded === null || (await deps.accounts.waHoldOf(owner)) === null) {
      return { personId: owner };
    }
    return { personId: chatId, waHeld: { account: owner, phone } };
  }
  const belongs = recorded ?? (await deps.accounts.adoptWaUser(owner, m.userId));
  if (belongs === m.userId) return { personId: owner };
  const hold = await deps.accounts.holdWa(owner, { phone, waUserId: m.userId, at: deps.now() });
  if (hold === null) return "moved";
  await deps.alertWaHold?.(owner, hold);
  deps.logger.warn({ chatId, account: owner }, "whatsapp number writes as another user id: held");
  return { personId: chatId, waHeld: { account: owner, phone } };
}

/**
 * A fresh WhatsApp account for the sender of a number an admin released from the chat's own
 * account (/waid release): an id of its own (chat-ids.ts `WA_FRESH_BASE`), registered with the
 * number and the sender's user id (trust on first use, as any WhatsApp-born account), nothing in
 * it. When someone registered the number meanwhile: a fresh account's own user id check decides
 * (`ownAccount`); another's owner is returned (the link gate's, as any number taken on Telegram).
 */
async function freshAccount(
  deps: InboundDeps,
  chatId: number,
  m: WaInboundMessage,
  phone: Phone,
  waUserId: string,
  again = false,
): Promise<Found | number> {
  // An id no account uses, with its user id recorded in the same step: a crash before the
  // profile leaves no account that the next sender's id would adopt.
  const fresh = await deps.accounts.openWaFresh(WA_FRESH_BASE, waUserId);
  const who = { name: m.name ?? "", channel: "whatsapp" as const, waUserId };
  const owner = await deps.accounts.claimPhone(fresh, phone, who);
  if (owner === null) {
    // The chat's state is the released account's (its session, a flow half done): none of it
    // is the new holder's. /waid release dropped it already; again here, against a flow saved
    // by an update that was under way meanwhile.
    await deps.forgetChat?.(chatId);
    deps.logger.info({ chatId, account: fresh }, "whatsapp released number: a fresh account");
    return { personId: fresh };
  }
  if (!isFreshWaAccount(owner)) return owner;
  const own = await ownAccount(deps, chatId, m, phone, owner, await deps.accounts.waUserOf(owner));
  if (own !== "moved") return own;
  // That account was released too since it was read: the number is free again, once more.
  if (!again) return freshAccount(deps, chatId, m, phone, waUserId, true);
  return { personId: chatId, waHeld: { account: owner, phone } };
}

const isTap = (m: WaInboundMessage) =>
  (m.kind === "button_reply" || m.kind === "list_reply") && Boolean(m.replyId);

/**
 * The message recorded as the chat's last (the 24-hour window), with what its handling reads from
 * the chat in the same round trip: a typed text may press a button of the newest list.
 */
function arrive(deps: InboundDeps, chatId: number, m: WaInboundMessage, phone: Phone) {
  const want = isTap(m) ? "none" : m.kind === "text" && m.text ? "buttons" : "next";
  // The person behind the phone read in the same round trip where the store can.
  return deps.store.arrive(chatId, { at: deps.now(), wamid: m.wamid }, want, phone);
}

/** The button a message stands for: a tap on it, or a typed number of the newest numbered list. */
async function tapOf(
  deps: InboundDeps,
  chatId: number,
  m: WaInboundMessage,
  last: { messageId: number; choices: Choice[] } | null,
) {
  if (isTap(m) && m.replyId) {
    const on = m.contextWamid ? await deps.store.messageOf(chatId, m.contextWamid) : null;
    // Unknown or another chat's: message 0, which no question waits on ("no longer active").
    return { data: m.replyId, messageId: on ?? 0 };
  }
  if (m.kind === "text" && m.text) {
    const data = last ? deps.typedChoice(m.text, last.choices) : null;
    if (last && data !== null) return { data, messageId: last.messageId };
  }
  return undefined;
}

/**
 * The message as the engine reads it. A template's quick reply carries its payload as text: it
 * reads as typed. WhatsApp's welcome request (a customer opening the chat the first time) is
 * greeted as "hi" is, with the menu (review s32-whatsapp, 2).
 */
function typedAs(m: WaInboundMessage): WaInboundMessage {
  if (m.kind === "quick_reply") return { ...m, kind: "text" };
  if (m.kind === "welcome") return { ...m, kind: "text", text: "/start" };
  return m;
}

/**
 * A file sent with a caption is the caption typed (a screenshot captioned "recharge not received
 * 98…", a bill's photo captioned with its customer id, "2" at a numbered list): what the customer
 * wrote is read at whatever question stands; the file is not. Without a caption it stays "media":
 * a message with no words (update.ts), which a question answers "please answer with a text" and
 * the chat outside one "I read only text and buttons" (review s32-whatsapp, 4).
 */
const captionRead = (m: WaInboundMessage): WaInboundMessage =>
  m.kind === "media" && m.text ? { ...m, kind: "text" } : m;

export function createInboundHandler(deps: InboundDeps) {
  return async ({ updateId, chatId, message: sent }: InboundItem): Promise<void> => {
    const m = captionRead(sent);
    const phone = phoneSchema.safeParse(m.waId);
    // Never so: the webhook queues only a sender with a phone (inbound-accept.ts logs and counts
    // the others); the check gives the phone its type.
    if (!phone.success) return;
    const mark = deps.localeMark?.();
    const arrived = await arrive(deps, chatId, m, phone.data);
    void deps.markRead(m.wamid).catch(() => {});
    // Not read with the arrival (a Cluster: another slot): one round trip of its own for both.
    const read = arrived.person ?? (await deps.accounts.ownerAndLocale(phone.data, chatId));
    const found = await personOf(deps, chatId, m, phone.data, read);
    if (found === null) {
      deps.logger.warn(
        { chatId },
        "whatsapp chat's account is bound to another number: not handled",
      );
      return;
    }
    const { personId } = found;
    // The language read is the owner's, or the chat's when nobody owned the number: personId's
    // unless the chat is held (answered in its own, not read).
    const readFor = read.owner ?? chatId;
    deps.personFound?.(chatId, personId, personId === readFor ? read.locale : null, mark);
    const tap = await tapOf(deps, chatId, m, arrived.buttons);
    const message = typedAs(m);
    const update = updateOf({
      updateId,
      chatId,
      personId,
      name: m.name ?? "",
      date: m.timestamp,
      message,
      ...(tap ? { tap } : {}),
      messageId: tap ? 0 : arrived.messageId,
      commands: deps.commands,
    });
    if (found.held !== undefined) markHeld(update, { ownerId: found.held, phone: phone.data });
    if (found.waHeld !== undefined) markWaHeld(update, found.waHeld);
    const seal = senderSeal(m);
    if (seal !== null) markSender(update, seal);
    // Its answers go to the sender just found, also while a hold waits (withheld.ts `withholds`).
    await answeringIn(chatId, () => deps.handleUpdate(update));
  };
}
