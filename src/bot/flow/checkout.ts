import { randomUUID } from "node:crypto";
import { InlineKeyboard } from "grammy";
import { formatMoney } from "../../money.ts";
import type { Order } from "../../orders/model.ts";
import { InsufficientFundsError, PriceChangedError } from "../../orders/service.ts";
import { accessOf, deniedReply } from "../access.ts";
import { addMoneyButtonData, menuButton } from "../callback-data.ts";
import type { FlowContext } from "../context.ts";
import type { OrderDraft, Role } from "../deps.ts";
import { isNotModified } from "../error-boundary.ts";
import type { Locale } from "../i18n.ts";
import { coverShortfall, shortText } from "./balance.ts";
import { limitText, refusalOf } from "./limit-text.ts";
import {
  charged,
  type Payment,
  paymentOf,
  pricedNow,
  priceLines,
  sameFigures,
  shownFigures,
  spendOf,
} from "./payment.ts";
import { type Placed, placedBefore, placedOrder, receiptAndSubmit, saidPlaced } from "./placed.ts";
import { askUntil, CB, type FlowScope } from "./prompt-loop.ts";

export { limitText };

/**
 * The end of every flow: confirm, reserve the limits, place, show the receipt, execute. Each side
 * effect runs through `conversation.external`, so a replay after a crash reuses its recorded
 * result instead of doing it again (README, "What each part guarantees").
 */

/** Who is buying: the order is placed for this user and chat, in this language. */
export interface Buyer {
  userId: number;
  chatId: number;
  locale: Locale;
  /** An agent's or admin's own balance pays (their float is for cash-ins): said so when short. */
  role?: Role;
}

/** The lines of a confirmation for a draft: operator, number, extras, package, amount. */
export function summary(s: FlowScope, draft: OrderDraft, extra: string[] = []): string[] {
  const lines = [
    s.t("confirm-operator", { operator: draft.operatorName }),
    s.t("confirm-number", { number: draft.connectionNo }),
    ...extra,
  ];
  const d = draft.details;
  if (typeof d.packageName === "string" && d.packageName)
    lines.push(s.t("confirm-package", { package: d.packageName }));
  lines.push(
    s.t("confirm-amount", {
      amount: formatMoney(draft.amountPaisa, { region: draft.region, locale: s.t.locale }),
    }),
  );
  return lines;
}

/** What the checkout may offer besides Confirm and Cancel. */
export interface CheckoutOptions {
  /**
   * The confirmation's Edit buttons: each names a step of the flow (steps.ts) whose answer is
   * asked again; the checkout then ends with that step's name instead of an order.
   */
  edits?: ReadonlyArray<{ step: string; labelKey: string }>;
}

/**
 * The confirmation's answer: Confirm, or the step an Edit button names (Cancel and Back end it in
 * the loop). Whatever is pressed, the message is left as the plain confirmation without buttons,
 * so nothing is left to tap twice and no "use the buttons" line stays above buttons that are gone.
 * On Confirm that edit and the press's callback answer are handed back still in flight
 * (`buttonsGone`): the checkout places the order meanwhile, so neither Bot API round trip is on the
 * way to the receipt.
 */
async function confirm(
  s: FlowScope,
  lines: string[],
  edits: NonNullable<CheckoutOptions["edits"]>,
  placed: () => Promise<Placed | undefined>,
): Promise<{ edit: string | null; buttonsGone: Promise<void> }> {
  const text = [s.t("confirm-title"), "", ...lines, "", s.t("confirm-question")].join("\n");
  // Text typed here edits the confirmation in place with this reason on top: one message, one set
  // of buttons, however often the customer types (prompt-loop.ts, `restate`).
  const reason = s.t(edits.length > 0 ? "confirm-use-buttons" : "confirm-use-buttons-no-edit");
  // The press's callback answer, in flight on Confirm (see `buttonsGone` below).
  let answered: Promise<unknown> = Promise.resolve();
  const answer = await askUntil<{ pressed: FlowContext; edit: string | null }>(s, {
    text,
    answerLater: (p) => {
      answered = p;
    },
    buttons: () => {
      const kb = new InlineKeyboard().text(s.t("common-confirm"), CB.confirm.data).row();
      edits.forEach((e, i) => {
        if (i > 0 && i % 2 === 0) kb.row();
        kb.text(s.t(e.labelKey), CB.edit.build(e.step));
      });
      return kb;
    },
    onButton: (data, u) => {
      if (CB.confirm.is(data)) return { kind: "done", value: { pressed: u, edit: null } };
      const step = CB.edit.parse(data);
      if (step !== null && edits.some((e) => e.step === step))
        return { kind: "done", value: { pressed: u, edit: step } };
      return { kind: "stay" };
    },
    onMessage: () => ({ kind: "restate", text: `${reason}\n\n${text}` }),
    // A turn that placed this confirmation's order may have lost its save (the conversation still
    // waits here): its Confirm is stale, its Edit would price a second order and its "balance
    // after" is from before the order. Any update but a Confirm of this very message looks the
    // key up (a Confirm finds the order through the place itself, with no read on its way).
    over: async (u, asked, moved) => {
      const cb = u.callbackQuery;
      const ownConfirm = CB.confirm.is(cb?.data) && cb?.message?.message_id === asked.message_id;
      if (ownConfirm && !moved) return false;
      const order = await placed();
      if (order === undefined) return false;
      await saidPlaced(s, order);
      return true;
    },
  });
  // The pressed message always has buttons, so this edit always changes something; "not
  // modified" could only mean a second instance got there first.
  const edited = answer.pressed.editMessageText(text, { reply_markup: new InlineKeyboard() }).then(
    () => undefined,
    (err: unknown) => {
      if (!isNotModified(err)) throw err;
    },
  );
  // Both settle before this resolves; a failure of either rejects it (after both settled).
  const buttonsGone = Promise.allSettled([answered, edited]).then((results) => {
    for (const r of results) if (r.status === "rejected") throw r.reason;
  });
  if (answer.edit !== null) {
    await buttonsGone;
    return { edit: answer.edit, buttonsGone };
  }
  // Awaited by the checkout; until then a failure must not surface as an unhandled rejection.
  buttonsGone.catch(() => {});
  return { edit: null, buttonsGone };
}

/**
 * Confirm and execute, exactly once. The idempotency key is fixed (through `external`) before the
 * confirmation is shown, so a double tap, a redelivered update or a replay after a crash all
 * reach `orders.place` with the same key and get the same order; `orders.submit` marks the order
 * submitting and sends the execute only for an order not yet submitted. Every confirmation shown
 * has a key of its own: after an Edit the changed order is priced afresh and never placed under
 * the key of the one shown before. Returns null when a limit refused the order, and the step's
 * name when an Edit button was pressed (nothing placed, nothing reserved).
 */
export async function confirmAndPlace(
  s: FlowScope,
  buyer: Buyer,
  draft: OrderDraft,
  extraLines: string[] = [],
  opts: CheckoutOptions = {},
): Promise<Order | null | { edit: string }> {
  const { conversation, ctx, deps } = s;
  const { userId, chatId } = buyer;
  // Who may spend at all (ACCESS_MODE): an unregistered customer (prepaid) or an unlisted user
  // (staff) is told so here, however the order was reached, and nothing is reserved or placed.
  const access = await conversation.external(() => accessOf(deps, userId));
  if (access !== "ok") {
    const denied = deniedReply(s.t, access);
    await ctx.reply(denied.text, denied.other);
    return null;
  }
  // Checked before the confirmation too, so nobody confirms an order the limits will refuse.
  // The price, and in prepaid mode the balance, before the confirmation: nobody confirms an
  // order the balance cannot pay for. The two reads are begun together, held for the turn: one
  // socket write (a balance read for an order the limits refuse is only a read).
  // A refusal wins: the payment's read (or its failure) is dropped when the limits refuse.
  const early = await conversation.external(async () => {
    deps.holdWrites?.();
    const payment = paymentOf(deps, userId, draft);
    payment.catch(() => {});
    // The cap counts what the balance pays, in Nepal paisa (an India amount converted, fee
    // included); priced here, inside `external`, so a replay never prices again.
    const spend = spendOf(deps, draft);
    const verdict = await deps.limits.check(userId, spend);
    if (verdict.ok) return { ok: true as const, pay: await payment };
    return { ok: false as const, ...(await refusalOf(deps, userId, verdict.reason, spend)) };
  });
  if (!early.ok) {
    await ctx.reply(limitText(s, early.reason, early.over, draft));
    return null;
  }
  // Short, every answer is kept: the shortfall can be added (or an agent cashes it in) and the
  // confirmation comes back, priced afresh (balance.ts). An India order is paid from the
  // Nepal-rupee balance at the configured rate: the balance is compared with, and the hold
  // takes, the converted total (`charged`).
  let pay = early.pay;
  while (pay.balancePaisa !== undefined && pay.balancePaisa < charged(pay)) {
    await coverShortfall(s, buyer, { balancePaisa: pay.balancePaisa, totalPaisa: charged(pay) });
    pay = await conversation.external(() => paymentOf(deps, userId, draft));
  }
  const key = await conversation.external(() => randomUUID());
  const answer = await confirm(
    s,
    [...summary(s, draft, extraLines), ...priceLines(s, draft, pay)],
    opts.edits ?? [],
    () => placedOrder(s, userId, key),
  );
  if (answer.edit !== null) return { edit: answer.edit };
  // Taking the buttons off is for the eye only (a second tap finds the flow over either way), so
  // the order is placed and the receipt sent while that edit is on its way, and a failed edit is
  // logged rather than standing between a Confirm and its order.
  const buttonsGone = answer.buttonsGone.catch((err: unknown) => {
    deps.logger.warn(
      { chatId, err: err instanceof Error ? err.message : String(err) },
      "the confirmation's buttons could not be taken off (or the tap answered)",
    );
  });
  try {
    const order = await placeConfirmed(s, buyer, draft, key, pay);
    if (order === "repriced") {
      // A deploy changed the rate or the schedule since this confirmation: said so, then the
      // confirmation again at today's figures, under a key of its own (nothing was held).
      await ctx.reply(s.t("confirm-price-changed"));
      await buttonsGone;
      return confirmAndPlace(s, buyer, draft, extraLines, opts);
    }
    if (order === null) return null;
    const done = await receiptAndSubmit(s, order);
    // Its receipt was sent before: a turn before this one placed it (receiptAndSubmit said so).
    if (order.receiptMessageId === undefined) return done;
  } finally {
    // Every Bot API call of the conversation settles before it returns.
    await buttonsGone;
  }
  // What follows an order (a flow's next step) ran with the turn that placed it.
  return s.conversation.halt();
}

/**
 * After Confirm: the operator still offered, the limits reserved under the order's key, the order
 * placed (and in prepaid mode its hold taken). Null when one of them refused (the user is told);
 * "repriced" when the figures priced now are not those the confirmation showed (`shown`, kept in
 * the conversation's log) and no order was placed under the key before: nothing is reserved or
 * held that the customer did not agree to.
 */
async function placeConfirmed(
  s: FlowScope,
  buyer: Buyer,
  draft: OrderDraft,
  key: string,
  shown: Payment,
): Promise<Order | null | "repriced"> {
  const { conversation, ctx, deps } = s;
  const { userId, chatId, locale } = buyer;
  // Blocked from the back office while the confirmation was shown: refused at the tap too.
  const access = await conversation.external(() => accessOf(deps, userId));
  if (access === "blocked" && !(await placedBefore(s, userId, key))) {
    await ctx.reply(deniedReply(s.t, access).text);
    return null;
  }
  // The provider may have withdrawn the operator since the flow offered it (a catalogue refresh):
  // said plainly here rather than as a refusal after the order is placed.
  const offered = await conversation.external(() => deps.catalog.isOffered(draft.operatorId));
  if (!offered) {
    // The next step as a button: the category afresh (its operators as offered now).
    const flow = s.nav.flow;
    const again =
      flow && menuButton.fits(flow)
        ? {
            reply_markup: new InlineKeyboard().text(
              s.t("common-start-again"),
              menuButton.build(flow),
            ),
          }
        : {};
    await ctx.reply(s.t("catalog-operator-withdrawn", { operator: draft.operatorName }), again);
    return null;
  }
  // A price changed since the confirmation (a deploy) is said before the cap decides: the cap would
  // count figures the customer never saw, and its refusal would hide the change ("today's limit
  // reached" for an order that fitted when shown). So nothing is reserved: place, given the figures
  // shown, never writes on a change. It hands back an order placed under this key before the
  // change (a Confirm run again; an exact look-up of the key), or refuses, and the refusal takes
  // back the key's reservation (reachedProviderOnly): one a Confirm took before its instance died,
  // ahead of its place.
  const changed = await conversation.external(() => !sameFigures(pricedNow(deps, draft), shown));
  if (!changed) {
    // Reserved under the order's key: a replay reserves nothing twice.
    const verdict = await conversation.external(async () => {
      const spend = spendOf(deps, draft);
      const v = await deps.limits.reserve(userId, spend, key);
      return v.ok ? v : { ok: false as const, ...(await refusalOf(deps, userId, v.reason, spend)) };
    });
    if (!verdict.ok) {
      await ctx.reply(limitText(s, verdict.reason, verdict.over, draft));
      return null;
    }
  }
  // The hold is taken with the order; a balance spent meanwhile (another chat) refuses it.
  const placed = await conversation.external(async () => {
    try {
      const expected = shownFigures(shown);
      return await deps.orders.place({
        ...draft,
        idempotencyKey: key,
        userId,
        chatId,
        locale,
        expected,
      });
    } catch (err) {
      if (err instanceof PriceChangedError) return { repriced: true as const };
      if (!(err instanceof InsufficientFundsError)) throw err;
      return { short: { balance: err.availablePaisa, total: err.totalPaisa } };
    }
  });
  if ("repriced" in placed) return "repriced";
  if ("short" in placed) {
    // Spent meanwhile (another chat): said with the way money gets in, and Add money.
    const short = { balancePaisa: placed.short.balance, totalPaisa: placed.short.total };
    const kb = deps.topUps
      ? new InlineKeyboard().text(s.t("topup-button"), addMoneyButtonData.data)
      : undefined;
    await ctx.reply(shortText(s, buyer, short), kb ? { reply_markup: kb } : {});
    return null;
  }
  return placed;
}
