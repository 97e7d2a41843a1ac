import { Composer, InputFile } from "grammy";
import { bookedRefunds } from "../../src/bot/booked-refunds.ts";
import { shareReceiptButton } from "../../src/bot/callback-data.ts";
import type { BotContext } from "../../src/bot/context.ts";
import { type BotDeps, type Role, roleIn } from "../../src/bot/deps.ts";
import type { Aside } from "../../src/bot/flow/toolkit.ts";
import { type Translate, translator } from "../../src/bot/i18n.ts";
import { canShareReceipt, receiptDocument } from "../../src/bot/receipt-document.ts";
import type { Order } from "../../src/orders/model.ts";

/** The order of `ref` when the viewer may see it: their own; staff any. */
async function visibleOrder(
  deps: Pick<BotDeps, "orders" | "settings">,
  userId: number,
  /** The sender's channel role (`roleIn`). */
  role: Role,
  ref: string,
): Promise<Order | null> {
  const order = await deps.orders.get(ref);
  if (!order) return null;
  return role !== "customer" || order.userId === userId ? order : null;
}

/**
 * "Share receipt" (issue 30): the order's receipt as a PDF the customer can keep and forward, sent
 * as a document below. Only an order the presser may see (their own; staff any), and only once it
 * is final; forged data for someone else's order answers "not found". Outside a flow a command
 * handler; inside one an aside, so the question waiting above is kept.
 */

type Sendable = {
  replyWithDocument: BotContext["replyWithDocument"];
  reply: BotContext["reply"];
};

async function share(
  deps: Pick<BotDeps, "complaints">,
  u: Sendable,
  t: Translate,
  order: Order | null,
) {
  if (!order || !canShareReceipt(order)) {
    await u.reply(t(order ? "receipt-share-not-final" : "status-not-found"));
    return;
  }
  // A complaint's refund of the order is on its receipt (review s33-rvtruth 7).
  const refund = (await bookedRefunds(deps, [order])).get(order.reference);
  // The receipt in the order's language is the one the chat showed; the reader's is asked here.
  const doc = await receiptDocument(t, order, undefined, refund);
  await u.replyWithDocument(new InputFile(doc.bytes, doc.filename), { caption: doc.caption });
}

export function shareReceipt(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.chatType("private").on("callback_query:data", async (ctx, next) => {
    const ref = shareReceiptButton.parse(ctx.callbackQuery.data);
    if (ref === null) return next();
    await ctx.answerCallbackQuery();
    const order = await visibleOrder(deps, ctx.from.id, roleIn(deps.settings, ctx), ref);
    await share(deps, ctx, translator(deps.i18n, await ctx.i18n.getLocale()), order);
  });
  return composer;
}

/** The same press while a flow waits: the document is sent below, the question stays. */
export const shareReceiptAside: Aside = {
  commands: [],
  async answer() {},
  async onButton(s, u, data) {
    const ref = shareReceiptButton.parse(data);
    if (ref === null) return false;
    await u.answerCallbackQuery();
    const userId = u.from?.id ?? 0;
    const role = roleIn(s.deps.settings, u);
    // Rendered and sent once, through the outer update: a replay does not render the PDF again.
    await s.conversation.external(async (outer) =>
      share(s.deps, outer, s.t, await visibleOrder(s.deps, userId, role, ref)),
    );
    return true;
  },
};
