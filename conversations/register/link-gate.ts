import type { MiddlewareFn } from "grammy";
import { formatPhone, readLinkCode } from "../../src/accounts/index.ts";
import type { ProfileInput } from "../../src/accounts/store.ts";
import type { HeldTaker } from "../../src/accounts/take-held.ts";
import type { BotContext } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import { type Translate, translator } from "../../src/bot/i18n.ts";
import { channelIdOf } from "../../src/bot/person.ts";
import { withAccount } from "../../src/telegram/call-account.ts";
import { isFreshWaAccount, isWhatsAppChat, WA_FRESH_BASE } from "../../src/whatsapp/chat-ids.ts";
import { type Held, heldOf, sealUserId, senderOf } from "../../src/whatsapp/held.ts";
import { anotherUsers, linkHow, offerLink, redeemLink, type Send, theirs, unlink } from "./link.ts";
import { type GateAnswer, ownerList, ownerPress, ownerUnlink } from "./unlink-owner.ts";

/**
 * Before the conversations: `link <code>` and `unlink` in any private chat (also while a flow
 * waits: the question keeps waiting), and every message of a WhatsApp chat whose number a
 * Telegram account registered without a proven link (whatsapp/held.ts): it may ask for a code
 * (`link`), type it, or take the number for an account of its own (`new`), and nothing else.
 */

/**
 * "/link 123456", "link 123 456", "unlink", "new": the first word (a slash or not) and the rest.
 * Not WhatsApp command words (whatsapp/update.ts): "link" typed mid-flow may be a search (an ISP's
 * name), so outside a held chat only `link <code>`, `/link` and `unlink` are the gate's.
 */
function commandOf(ctx: BotContext): { word: string; rest: string; slash: boolean } | null {
  const m = /^(\/?)([a-z]+)(?:@\w+)?(?:\s+([\s\S]*))?$/i.exec(ctx.message?.text?.trim() ?? "");
  if (!m) return null;
  return { slash: m[1] === "/", word: (m[2] ?? "").toLowerCase(), rest: (m[3] ?? "").trim() };
}

/** Whether a chat that is not held has said something for the gate. */
function forGate(cmd: ReturnType<typeof commandOf>): boolean {
  if (cmd === null) return false;
  if (cmd.word === "unlink") return cmd.rest === "";
  if (cmd.word !== "link") return false;
  return readLinkCode(cmd.rest) !== null || (cmd.slash && cmd.rest === "");
}

export function linkGate(deps: BotDeps): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    if (ctx.chat?.type !== "private") return next();
    const channelId = channelIdOf(ctx);
    const held = heldOf(ctx.update);
    const cmd = commandOf(ctx);
    // A press on the list `unlink` shows the account's owner in its WhatsApp chat (unlink-owner.ts).
    const pressed =
      channelId !== undefined && isWhatsAppChat(channelId)
        ? ownerPress(ctx.callbackQuery?.data)
        : null;
    if (channelId === undefined || (!held && !forGate(cmd) && pressed === null)) {
      return next();
    }
    const t = translator(deps.i18n, await ctx.i18n.getLocale());
    const send: Send = (chatId, text) => ctx.api.sendMessage(chatId, text);
    if (ctx.callbackQuery) await ctx.answerCallbackQuery().catch(() => {});
    // A chat the shop blocked neither joins an account nor takes a number (it would act as an
    // account nobody blocked); leaving a link is always allowed. A released account's block is
    // its old holder's, not the number's next holder's (asked only when blocked: no cost): a
    // sender proven another by a Meta user id; one without any may be that holder, blocked still.
    const seal = senderOf(ctx.update);
    if (
      cmd?.word !== "unlink" &&
      pressed === null &&
      (await deps.payment.access(channelId)) === "blocked" &&
      !(sealUserId(seal) !== null && (await anotherUsers(deps, channelId, seal)))
    ) {
      await ctx.reply(t("access-blocked"));
      return;
    }
    const answer = held
      ? await heldAnswer(deps, t, send, {
          channelId,
          held,
          cmd,
          name: ctx.from?.first_name ?? "",
          ...(seal !== undefined ? { seal } : {}),
        })
      : pressed !== null
        ? await ownerAnswer(deps, t, send, { channelId, personId: ctx.from?.id, pressed })
        : await linkAnswer(deps, t, { channelId, personId: ctx.from?.id }, cmd, seal);
    if (typeof answer === "string") await ctx.reply(answer);
    else await ctx.reply(answer.text, { reply_markup: answer.keyboard });
  };
}

/**
 * A press on the owner's list: only in a WhatsApp chat acting as its own account (a chat joined
 * to another account ends its own join with `unlink`, never the joins made to that account).
 */
async function ownerAnswer(
  deps: BotDeps,
  t: Translate,
  send: Send,
  o: { channelId: number; personId: number | undefined; pressed: string },
): Promise<string> {
  if (o.personId === undefined || (await deps.accounts.links.linkOf(o.channelId)) !== null)
    return t("unlink-owner-gone", { unlink: "unlink" });
  return ownerUnlink(deps, t, send, { personId: o.personId, pressed: o.pressed });
}

async function linkAnswer(
  deps: BotDeps,
  t: Translate,
  who: { channelId: number; personId: number | undefined },
  cmd: ReturnType<typeof commandOf>,
  seal: string | undefined,
): Promise<GateAnswer> {
  const { channelId } = who;
  if (cmd?.word === "unlink") {
    // A WhatsApp chat on its own account: its owner ends a join made to it (unlink-owner.ts).
    if (
      isWhatsAppChat(channelId) &&
      who.personId !== undefined &&
      (await deps.accounts.links.linkOf(channelId)) === null
    )
      return (await ownerList(deps, t, who.personId)) ?? t("unlink-none");
    return unlink(deps, t, channelId);
  }
  const code = readLinkCode(cmd?.rest ?? "");
  if (code !== null) return redeemLink(deps, t, channelId, code, seal);
  return linkHow(deps, t, channelId);
}

/** A held chat: a code asked for or typed, the number taken for a new account, else the choice. */
async function heldAnswer(
  deps: BotDeps,
  t: Translate,
  send: Send,
  h: {
    channelId: number;
    held: Held;
    cmd: ReturnType<typeof commandOf>;
    name: string;
    seal?: string;
  },
): Promise<string> {
  const { channelId, held, cmd } = h;
  const phone = formatPhone(held.phone);
  if (cmd?.word === "link") {
    const code = readLinkCode(cmd.rest);
    if (code !== null) return redeemLink(deps, t, channelId, code, h.seal);
    return offerLink(deps, t, send, {
      channelId,
      personId: held.ownerId,
      phone: held.phone,
      asker: h.name,
      ...(h.seal !== undefined ? { seal: h.seal } : {}),
    });
  }
  if (cmd?.word === "new") {
    // The chat's own account belongs to another Meta user id (a WhatsApp-born account an admin
    // released this number from: /waid): the number never goes back to it but by an admin's
    // decision, or its old holder's money would be the sender's (and cash-ins to the number).
    // The sender gets a fresh account of their own instead, as any released number's next
    // holder (whatsapp/inbound.ts `freshAccount`): it needs their Meta user id.
    // The account the number would leave is blocked: taking it would give its holder an account
    // nobody blocked, with the number's cash-ins (review s33-rvlink, 2). The shop decides; an
    // innocent next holder of a recycled SIM is sent there too.
    if ((await deps.payment.access(held.ownerId)) === "blocked") {
      return t("link-new-blocked", { phone });
    }
    const released = await anotherUsers(deps, channelId, h.seal);
    const sender = sealUserId(h.seal);
    if (released && sender === null) {
      return t("link-new-no-id", { phone, confirm: `new ${CONFIRM}`, link: "link" });
    }
    // Asked once more: one word would move the number away from an account with its own money.
    if (cmd.rest.toLowerCase() !== CONFIRM) {
      return t("link-new-confirm", { phone, confirm: `new ${CONFIRM}`, link: "link" });
    }
    const fresh = released && sender !== null;
    const who = {
      name: h.name,
      channel: "whatsapp" as const,
      ...(fresh ? { waUserId: sender } : {}),
    };
    const to = fresh ? { base: WA_FRESH_BASE, waUserId: sender } : channelId;
    return takeNumber(deps, send, { channelId, to, held, who, t });
  }
  return t("link-held", { phone, link: "link", new: "new" });
}

/** The word that confirms `new` ("new yes"). */
const CONFIRM = "yes";

/**
 * WhatsApp proves who holds the number now: it leaves the Telegram account, which keeps its
 * balance, history and the right to spend it (registered once: accounts/access-flags.ts), and a
 * cash-in to the number is this chat's from now on. Taken only from the owner the chat's update
 * read (accounts/take-held.ts: one step; a fresh account, chat-ids.ts `WA_FRESH_BASE`, is opened
 * in it and only then), and that account alone is told. Another update of this chat handled on
 * the same read finds the number already the sender's (done, nothing opened twice); an account
 * that registered it since keeps it.
 */
async function takeNumber(
  deps: BotDeps,
  send: Send,
  /** `to`: a fresh account for the sender's Meta user id, else the chat's own (its id). */
  n: { channelId: number; to: HeldTaker; held: Held; who: ProfileInput; t: Translate },
): Promise<string> {
  const { channelId, held, to } = n;
  const phone = formatPhone(held.phone);
  const r = await deps.accounts.takeHeldPhone(held.phone, held.ownerId, to, n.who);
  if (!r.taken) {
    const theSenders =
      typeof to === "number"
        ? r.owner === to
        : isFreshWaAccount(r.owner) && r.ownerWaUser === to.waUserId;
    if (theSenders) return n.t("link-new-done", { phone, hi: "hi" });
    return n.t("link-new-moved", { phone, hi: "hi" });
  }
  // A fresh account: the chat's flow and session were the released account's (dropped by /waid
  // release; again here, as when a fresh account opens on arrival).
  if (typeof to !== "number") await deps.forgetChat(channelId);
  deps.logger.info(
    { userId: r.account, chatId: channelId, from: r.from },
    "whatsapp chat took its number",
  );
  if (r.from !== null) {
    const from = r.from;
    const there = await theirs(deps, from, n.t);
    // Their account said: a released WhatsApp chat's goes to its old holder (chat-calls.ts).
    const taken = there("link-number-taken", { phone, register: "/register" });
    await withAccount(from, () => send(from, taken)).catch((err: unknown) =>
      // That chat blocked the bot: the number has moved all the same (WhatsApp proved its holder).
      deps.logger.warn({ userId: from, err: String(err) }, "number-taken notice not sent"),
    );
  }
  return n.t("link-new-done", { phone, hi: "hi" });
}
