import { InlineKeyboard } from "grammy";
import { formatPhone } from "../../src/accounts/index.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import type { Translate } from "../../src/bot/i18n.ts";
import { isWhatsAppChat } from "../../src/whatsapp/chat-ids.ts";
import { type Send, theirs } from "./link.ts";

/**
 * The account's owner ends a join made to it (review s33-rvlink: a join the owner did not want,
 * a recycled-number case that slipped through, could be ended only from the joined chat). In the
 * account's own WhatsApp chat, `unlink` lists the Telegram chats that use the account, and a
 * press ends the chosen one: that chat acts as its own account again, and is told so. Money
 * stays where it is: the joined chat never had any of its own (links.ts: it joins empty).
 */

/** What the link gate answers: words, or words with buttons. */
export type GateAnswer = string | { text: string; keyboard: InlineKeyboard };

/** The buttons' data: `unlink:<telegram id>`, or `unlink:keep`. */
const PREFIX = "unlink:";
const KEEP = "keep";
/** Chats listed at most (a list row each, with Keep: WhatsApp lists hold 10 rows). */
const LISTED = 9;

/** A press on the owner's list, or null. */
export function ownerPress(data: string | undefined): string | null {
  return data?.startsWith(PREFIX) ? data.slice(PREFIX.length) : null;
}

/** How the owner knows a joined Telegram chat: its kept name and @username, else "a Telegram chat". */
async function chatName(deps: BotDeps, t: Translate, chatId: number): Promise<string> {
  const p = await deps.accounts.profileOf(chatId).catch(() => null);
  const name = [p?.name?.trim(), p?.username ? `@${p.username}` : ""].filter(Boolean).join(" ");
  return name || t("unlink-owner-chat");
}

/** `unlink` typed in the account's own WhatsApp chat: the joined Telegram chats, or null (none). */
export async function ownerList(
  deps: BotDeps,
  t: Translate,
  personId: number,
): Promise<GateAnswer | null> {
  const chats = (await deps.accounts.links.channelsOf(personId)).slice(0, LISTED);
  if (chats.length === 0) return null;
  const names = await Promise.all(chats.map((c) => chatName(deps, t, c)));
  const keyboard = new InlineKeyboard();
  chats.forEach((c, i) => {
    keyboard.text(t("unlink-owner-end", { n: i + 1, name: names[i] ?? "" }), `${PREFIX}${c}`).row();
  });
  keyboard.text(t("unlink-owner-keep"), `${PREFIX}${KEEP}`);
  const list = names.map((n, i) => `${i + 1}. ${n}`).join("\n");
  return { text: t("unlink-owner-list", { list }), keyboard };
}

/**
 * A press on the owner's list: the chosen Telegram chat's join ends while it is still to this
 * account (compare and delete: a chat that joined elsewhere since keeps that join), and both
 * chats are told. The Telegram chat's next update reads no link (bot/person.ts reads a found
 * link at every update), so an open flow there ends before anything of it runs
 * (flow/next-update.ts `otherAccount`).
 */
export async function ownerUnlink(
  deps: BotDeps,
  t: Translate,
  send: Send,
  o: { personId: number; pressed: string },
): Promise<string> {
  if (o.pressed === KEEP) return t("unlink-owner-kept");
  const chatId = Number(o.pressed);
  if (!Number.isSafeInteger(chatId) || chatId <= 0 || isWhatsAppChat(chatId))
    return t("unlink-owner-gone", { unlink: "unlink" });
  const name = await chatName(deps, t, chatId);
  if (!(await deps.accounts.links.unlink(chatId, o.personId)))
    return t("unlink-owner-gone", { unlink: "unlink" });
  deps.persons.unlinked(chatId);
  deps.logger.info({ userId: chatId, personId: o.personId }, "join ended by the account's owner");
  const phone = await deps.accounts.phoneOf(o.personId);
  const there = await theirs(deps, chatId, t);
  const words = there("unlink-by-owner", {
    phone: phone === null ? "WhatsApp" : formatPhone(phone),
    link: "/link",
  });
  await send(chatId, words).catch((err: unknown) =>
    // That chat blocked the bot: the join has ended all the same.
    deps.logger.warn({ userId: chatId, err: String(err) }, "unjoin notice not sent"),
  );
  return t("unlink-owner-done", { name });
}
