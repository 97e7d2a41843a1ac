import { Composer, InlineKeyboard, InputFile } from "grammy";
import { formatPhone } from "../../src/accounts/index.ts";
import { statementMonthButton } from "../../src/bot/callback-data.ts";
import type { BotContext } from "../../src/bot/context.ts";
import { type BotDeps, roleIn } from "../../src/bot/deps.ts";
import type { Aside } from "../../src/bot/flow/toolkit.ts";
import { type Translate, translator } from "../../src/bot/i18n.ts";
import {
  monthLabel,
  monthRange,
  recentMonths,
  statementDocument,
} from "../../src/bot/statement-document.ts";

/**
 * /statement (issue 30): the month to state, then that month's movements of the presser's own
 * balance as a PDF document (opening and closing balance, each movement with the balance after
 * it), read from the books. The months offered are this one and the five before it, on Nepal's
 * clocks. Inside a flow the same command and buttons are answered in place (an aside).
 */

const MONTHS_OFFERED = 6;

export function monthsKeyboard(t: Translate, now: number): InlineKeyboard {
  const kb = new InlineKeyboard();
  recentMonths(now, MONTHS_OFFERED).forEach((m, i) => {
    kb.text(monthLabel(t.locale, m), statementMonthButton.build(m));
    if (i % 2 === 1) kb.row();
  });
  return kb;
}

type Sendable = {
  replyWithDocument: BotContext["replyWithDocument"];
  reply: BotContext["reply"];
};

/** What the statement needs from the books, read once (a flow reads it through `external`). */
async function readStatement(deps: Pick<BotDeps, "accounts">, userId: number, month: string) {
  const [s, phone] = await Promise.all([
    deps.accounts.customerStatement(userId, monthRange(month)),
    deps.accounts.phoneOf(userId),
  ]);
  return { s, holder: phone ? formatPhone(phone) : undefined };
}

async function send(
  u: Sendable,
  t: Translate,
  month: string,
  read: Awaited<ReturnType<typeof readStatement>>,
  /**
   * An agent's: the statement is of their own balance (it pays their own orders), not of the
   * agent balance they cash in from, which the caption names (review s33-rvagent, 4).
   */
  agent = false,
) {
  if (!read.s.complete) {
    await u.reply(t("statement-too-long", { month: monthLabel(t.locale, month) }));
    return;
  }
  const doc = await statementDocument(t, read.s, month, read.holder);
  const caption = agent
    ? t("statement-doc-caption-agent", { month: monthLabel(t.locale, month) })
    : doc.caption;
  await u.replyWithDocument(new InputFile(doc.bytes, doc.filename), { caption });
}

export function statement(deps: BotDeps): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const priv = composer.chatType("private");
  const tOf = async (ctx: BotContext) => translator(deps.i18n, await ctx.i18n.getLocale());
  priv.command("statement", async (ctx) => {
    const t = await tOf(ctx);
    await ctx.reply(t("statement-choose"), { reply_markup: monthsKeyboard(t, Date.now()) });
  });
  priv.on("callback_query:data", async (ctx, next) => {
    const month = statementMonthButton.parse(ctx.callbackQuery.data);
    if (month === null) return next();
    await ctx.answerCallbackQuery();
    const agent = roleIn(deps.settings, ctx) === "agent";
    await send(ctx, await tOf(ctx), month, await readStatement(deps, ctx.from.id, month), agent);
  });
  return composer;
}

/** /statement and its month buttons while a flow waits: answered below, the question stays. */
export const statementAside: Aside = {
  commands: ["statement"],
  async answer(s, u) {
    const now = await s.conversation.now();
    await u.reply(s.t("statement-choose"), { reply_markup: monthsKeyboard(s.t, now) });
  },
  async onButton(s, u, data) {
    const month = statementMonthButton.parse(data);
    if (month === null) return false;
    await u.answerCallbackQuery();
    const userId = u.from?.id ?? 0;
    const agent = roleIn(s.deps.settings, u) === "agent";
    // Read, rendered and sent once, through the outer update: a replay neither renders the PDF
    // again nor keeps the statement's lines in the conversation's state.
    await s.conversation.external(async (outer) =>
      send(outer, s.t, month, await readStatement(s.deps, userId, month), agent),
    );
    return true;
  },
};
