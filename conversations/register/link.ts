import { formatPhone, type Phone } from "../../src/accounts/index.ts";
import type { RedeemResult } from "../../src/accounts/links.ts";
import { type BotDeps, isStaffId } from "../../src/bot/deps.ts";
import { isLocale, type Translate, translator } from "../../src/bot/i18n.ts";
import { account } from "../../src/ledger/index.ts";
import { chatIdOfWaId, isWhatsAppAccount, isWhatsAppChat } from "../../src/whatsapp/chat-ids.ts";
import { senderSeal } from "../../src/whatsapp/held.ts";

/**
 * Joining two channels into one account, with proof of holding both (accounts/links.ts): a code
 * is sent to the chat of the account that registered the number, and typed in the chat that wants
 * to act as it. Nothing else joins them, so no balance follows a number to whoever holds it now.
 */

/** Sends a text to a chat of either channel (the Bot API's sendMessage, WhatsApp's through the router). */
export type Send = (chatId: number, text: string) => Promise<unknown>;

/**
 * The channel of a chat or of an account: a fresh WhatsApp account (a released number's next
 * holder: whatsapp/chat-ids.ts) is no chat id, yet its messages go to WhatsApp.
 */
const channelName = (id: number) => (isWhatsAppAccount(id) ? "WhatsApp" : "Telegram");
/** How a command is typed in a chat: WhatsApp has no slash commands (src/whatsapp/update.ts). */
const commandIn = (chatId: number, word: string) => (isWhatsAppChat(chatId) ? word : `/${word}`);

/**
 * Why `channelId` may not act as `personId`, or null when it may: staff on either side (a role is
 * the channel's and never travels: bot/person.ts), or a channel with an account of its own (a
 * number, or money posted or held for an order under way: it would lose sight of it).
 */
export async function linkRefusal(
  deps: BotDeps,
  channelId: number,
  personId: number,
  /** Who asks, in a WhatsApp chat (whatsapp/held.ts `senderSeal`). */
  seal?: string,
): Promise<"link-refused-staff" | "link-refused-target" | "link-refused-own" | null> {
  if (isStaffId(deps.settings, channelId)) return "link-refused-staff";
  // Not said why: whoever carries a staff member's old number learns nothing of the role.
  if (isStaffId(deps.settings, personId)) return "link-refused-target";
  // A WhatsApp account frozen for an admin's decision (/waid): nobody joins it meanwhile (the
  // code would reach its number's new holder).
  if ((await deps.accounts.waHoldOf(personId)) !== null) return "link-refused-target";
  const [phone, money, others] = await Promise.all([
    deps.accounts.phoneOf(channelId),
    deps.accounts.balanceOf(account.customer(channelId)),
    anotherUsers(deps, channelId, seal),
  ]);
  if (phone !== null) return "link-refused-own";
  // Its money is not the sender's to lose sight of, and is never named to them.
  if (others) return null;
  if (money.postedPaisa !== 0 || money.heldPaisa !== 0) return "link-refused-own";
  return null;
}

/**
 * Whether a WhatsApp chat's own account belongs to another Meta user id than the sender's (`seal`:
 * whatsapp/held.ts `senderSeal`): /waid released the number from it, and its money, block and
 * flows are its old holder's, not the sender's (the number's next holder). False for Telegram.
 */
export async function anotherUsers(
  deps: BotDeps,
  channelId: number,
  seal: string | undefined,
): Promise<boolean> {
  if (!isWhatsAppChat(channelId)) return false;
  const mine = await deps.accounts.waUserOf(channelId);
  return mine !== null && seal !== senderSeal({ userId: mine });
}

/** The translator of a chat's person (their kept language), else `t`'s. */
export async function theirs(deps: BotDeps, userId: number, t: Translate): Promise<Translate> {
  const kept = await deps.accounts.localeOf(userId).catch(() => null);
  return isLocale(kept) ? translator(deps.i18n, kept) : t;
}

/**
 * Whether a code for `personId` would reach only whoever holds `phone`'s SIM today, not the Meta
 * user id a WhatsApp-born account belongs to (a recycled number's next holder reads it without
 * ever writing: review s33-rvlink, 1). Sent only while that chat's 24-hour window is open: its
 * own user id wrote (another's would have put a hold, refused before this), and never as a
 * template outside it. Residuals: a writer Meta names no user id for, a SIM recycled that day.
 */
async function codeUnproven(deps: BotDeps, personId: number, phone: Phone): Promise<boolean> {
  if ((await deps.accounts.waUserOf(personId)) === null) return false;
  const chatId = chatIdOfWaId(phone);
  return chatId === null || !(await deps.waWindowOpen(chatId));
}

/**
 * Offers `channelId` to act as `personId` (the account that registered `phone`): a code goes to
 * that account's chat. Returns what the asking chat is told.
 */
export async function offerLink(
  deps: BotDeps,
  t: Translate,
  send: Send,
  /**
   * `asker`: the asking chat's name as its channel shows it, so the owner knows who asks; `seal`:
   * who asks in a WhatsApp chat (`linkRefusal`).
   */
  o: { channelId: number; personId: number; phone: Phone; asker: string; seal?: string },
): Promise<string> {
  const refused = await linkRefusal(deps, o.channelId, o.personId, o.seal);
  const phone = formatPhone(o.phone);
  if (refused !== null) return t(refused, { phone });
  if (await codeUnproven(deps, o.personId, o.phone))
    return t("link-write-first", { phone, hi: "hi" });
  const r = await deps.accounts.links.offer(o.channelId, { personId: o.personId, phone: o.phone });
  if (!r.ok) return t("link-too-many-codes");
  const there = await theirs(deps, o.personId, t);
  const text = there("link-code", {
    code: r.code,
    channel: channelName(o.channelId),
    command: commandIn(o.channelId, "link"),
    asker: o.asker.trim() || "?",
  });
  // The owner's WhatsApp chat can end the join later (unlink-owner.ts): it is told how.
  const ending = isWhatsAppChat(o.channelId)
    ? ""
    : `\n${there("link-code-unlink", { unlink: "unlink" })}`;
  try {
    await send(o.personId, `${text}${ending}`);
  } catch (err) {
    // That chat blocked the bot, or its channel refused: the offer stands, but nobody can read it.
    deps.logger.warn({ userId: o.channelId, err: String(err) }, "link code not delivered");
    return t("link-not-sent", { channel: channelName(o.personId) });
  }
  deps.logger.info({ userId: o.channelId, personId: o.personId }, "link code sent");
  return t("link-code-sent", {
    phone,
    channel: channelName(o.personId),
    command: commandIn(o.channelId, "link"),
  });
}

/**
 * How to ask for a new code, in the chat that types it: " " and the words, or "" for a chat with
 * a number of its own (a code is never offered to it: it is the side codes are sent to, and one
 * typed there was meant for the other chat).
 */
async function askAgain(deps: BotDeps, t: Translate, channelId: number): Promise<string> {
  if ((await deps.accounts.phoneOf(channelId)) !== null) return "";
  return ` ${
    isWhatsAppChat(channelId)
      ? t("link-ask-again-whatsapp", { link: "link" })
      : t("link-ask-again-telegram")
  }`;
}

/**
 * A code typed in `channelId`'s chat: joined when it is the code sent, and the offer still holds
 * (the number is still that account's, and nothing came to either side that forbids it).
 */
export async function redeemLink(
  deps: BotDeps,
  t: Translate,
  channelId: number,
  code: string,
  /** Who typed it, as WhatsApp names them (whatsapp/held.ts `senderSeal`); for a WhatsApp chat. */
  seal?: string,
): Promise<string> {
  const r: RedeemResult = await deps.accounts.links.redeem(channelId, code);
  if (!r.ok) {
    if (r.code === "wrong") return t("link-wrong", { left: r.triesLeft ?? 0 });
    const key = r.code === "too_many_tries" ? "link-too-many-tries" : "link-no-offer";
    return `${t(key)}${await askAgain(deps, t, channelId)}`;
  }
  const phone = formatPhone(r.phone);
  const refused = await linkRefusal(deps, channelId, r.personId, seal);
  if (refused !== null) return t(refused, { phone });
  // The code was right, but the number has left that account since it was sent.
  if ((await deps.accounts.userByPhone(r.phone)) !== r.personId) {
    // Released from a WhatsApp account (/waid): the code went to a number with a new holder, who
    // may be the one typing it, and a new code would not reach that account: support, not a code
    // (review s25-left, 3). Asked only here (a hold was refused above, so this is the release).
    if (isWhatsAppAccount(r.personId) && (await deps.accounts.waHeldNow(r.personId)))
      return t("link-number-released", { phone });
    return `${t("link-number-moved", { phone })}${await askAgain(deps, t, channelId)}`;
  }
  // A WhatsApp chat's link is sealed with its sender (none known: "", which no sender matches, so
  // the chat is held again at once: never a link that any holder of the number passes).
  await deps.accounts.links.link(
    channelId,
    r.personId,
    isWhatsAppChat(channelId) ? (seal ?? "") : undefined,
  );
  if (!isWhatsAppChat(channelId)) {
    deps.persons.linked(channelId, r.personId);
    // Its own language, for what the account's owner may tell it later (the join ended: the
    // chat's /language keeps the person's, not the Telegram user's: bot/person.ts).
    await deps.accounts.setLocale(channelId, t.locale);
  }
  deps.logger.info({ userId: channelId, personId: r.personId }, "channel linked with a code");
  return t("link-done", { phone, command: commandIn(channelId, "unlink") });
}

/** `/link` without a code: how to join, or, in a chat already joined, whose account it uses. */
export async function linkHow(deps: BotDeps, t: Translate, channelId: number): Promise<string> {
  const personId = await deps.accounts.links.linkOf(channelId);
  if (personId === null) return t("link-how", { link: "link" });
  const phone = await deps.accounts.phoneOf(personId);
  const command = commandIn(channelId, "unlink");
  return phone === null
    ? t("link-already-other", { command })
    : t("link-already", { phone: formatPhone(phone), command });
}

/** Ends the chat's link: it acts as its own account again (the other keeps everything). */
export async function unlink(deps: BotDeps, t: Translate, channelId: number): Promise<string> {
  if (!(await deps.accounts.links.unlink(channelId))) return t("unlink-none");
  if (!isWhatsAppChat(channelId)) deps.persons.unlinked(channelId);
  deps.logger.info({ userId: channelId }, "channel unlinked");
  return t("unlink-done");
}
