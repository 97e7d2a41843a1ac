import { randomBytes } from "node:crypto";
import {
  type Accounts,
  formatPhone,
  type MoveResult,
  NotBookedError,
  type NoticeSide,
} from "../../src/accounts/index.ts";
import type { BotContext, FlowConversation } from "../../src/bot/context.ts";
import type { BotDeps } from "../../src/bot/deps.ts";
import type { Flow, FlowWords } from "../../src/bot/flow/toolkit.ts";
import { isLocale, type Translate, translator } from "../../src/bot/i18n.ts";
import type { AccountId } from "../../src/ledger/index.ts";
import { formatMoney, rupeesToPaisa } from "../../src/money.ts";
import { withAccount } from "../../src/telegram/call-account.ts";

/**
 * The shared part of the cash conversations (cash-in.ts, credit.ts, reverse.ts).
 *
 * Money coming in through people: /cashin (an agent took cash and credits a customer by phone
 * number), /credit (an admin credits an agent), /reverse (an admin reverses either, with a
 * reason). Each books one ledger transfer under an id drawn (through `external`) before the
 * confirm step, so a double tap, a redelivered update or a replay books it once; both sides get
 * a receipt naming that id, which is also what /reverse takes.
 */

/** The most one cash-in or credit may move (a typo of a zero or two is caught). */
export const MAX_CREDIT_PAISA = rupeesToPaisa(100_000);
export const MIN_PAISA = rupeesToPaisa(1);

export const newId = (kind: string) => `${kind}-${randomBytes(6).toString("hex")}`;

export const money = (t: Translate, paisa: number) => formatMoney(paisa, { locale: t.locale });

/** A person or account of a transfer, in words: "customer +977 9841234567", "agent 2001". */
export async function partyName(t: Translate, accounts: Accounts, acc: AccountId): Promise<string> {
  const [kind, id] = acc.split(":");
  if (kind === "customer") {
    const phone = await accounts.phoneOf(Number(id));
    return t("party-customer", { who: phone ? formatPhone(phone) : String(id) });
  }
  if (kind === "agent") return t("party-agent", { who: String(id) });
  return t("party-merchant");
}

/**
 * Tells `userId` in their chat, in their own language (the one kept beside their account at
 * registration and /language; the sender's `t` when none is known); a chat that blocked the bot
 * loses only this message.
 */
export async function push(
  conversation: FlowConversation,
  deps: BotDeps,
  userId: number,
  t: Translate,
  text: (theirs: Translate) => string,
): Promise<void> {
  const kept = await conversation.external(async () => {
    try {
      return (await deps.accounts.localeOf(userId)) ?? null;
    } catch {
      return null;
    }
  });
  const theirs = isLocale(kept) ? translator(deps.i18n, kept) : t;
  await conversation.external(async (outer: BotContext) => {
    try {
      // Their account said: a released WhatsApp chat's goes to its old holder (chat-calls.ts).
      await withAccount(userId, () => outer.api.sendMessage(userId, text(theirs)));
    } catch (err) {
      deps.logger.warn(
        { userId, err: err instanceof Error ? err.message : String(err) },
        "receipt push not delivered",
      );
    }
  });
}

/**
 * Whether `side` of transfer `id` is still to be told (the first ask only, across instances): a
 * Confirm handled again after the instance that told died, or taken at two instances, says it once.
 */
export async function firstNotice(
  conversation: FlowConversation,
  deps: Pick<BotDeps, "accounts" | "logger">,
  id: string,
  side: NoticeSide,
): Promise<boolean> {
  return conversation.external(() =>
    deps.accounts.firstNotice(id, side).catch((err: unknown) => {
      deps.logger.warn(
        { id, side, err: err instanceof Error ? err.message : String(err) },
        "notice mark not written",
      );
      // Not known whether told. The one acting ("by", staff's "heard:") is told, maybe twice,
      // rather than answered with "something went wrong" (which reads as "not done" and invites
      // doing it again). The other side is not pushed: a second "Rs 500 was added to your
      // balance" reads to a customer as Rs 1000; their balance and statement say it truly.
      return side === "by" || side.startsWith("heard:");
    }),
  );
}

/**
 * What Cancel, Leave and the idle notice say once a booking's outcome is unknown: never "nothing
 * was moved" (it may have been), never "send /cashin to start again".
 */
const UNSURE_WORDS: FlowWords = {
  cancelled: "cash-unsure-cancelled",
  leaveQuestion: "cash-unsure-leave-question",
  ended: "cash-unsure-cancelled",
};
/** The same for an admin's /credit or /reverse: where an admin looks it up (not /balance). */
const UNSURE_WORDS_ADMIN: FlowWords = {
  ...UNSURE_WORDS,
  cancelled: "cash-unsure-cancelled-admin",
  ended: "cash-unsure-cancelled-admin",
};

/** How many times a booking is tried (the Confirm and its Checks) before the flow stops asking. */
export const MAX_BOOKING_TRIES = 5;

/**
 * Runs `book` (a cash-in, a credit or a reversal under the id fixed before its confirm step)
 * until it answers. A failure may come after the books took it (a receipt write, a balance read,
 * a Redis timeout after the script ran): the flow then says it is not known whether receipt `id`
 * was booked, not to do it again, and offers Check, which runs `book` again under the same id
 * (booked at most once: a booked one answers as a duplicate). The conversation is not dropped,
 * so "something went wrong" never leads to a second booking under a new id.
 *
 * Null when the flow has said why it stops: the books refused the transfer before taking it
 * (`NotBookedError`: nothing was booked, and Check could not book it), or MAX_BOOKING_TRIES went
 * by without an answer (still not known: the receipt is looked up in the back office, never done
 * again), so Check is not offered forever.
 */
export async function bookOnce<R>(
  flow: Flow,
  conversation: FlowConversation,
  deps: BotDeps,
  x: { id: string; command: string },
  book: () => Promise<R>,
): Promise<R | null> {
  const { t } = flow;
  for (let tries = 1; ; tries++) {
    const r = await conversation.external(async (): Promise<{ done: R } | { refused: boolean }> => {
      try {
        return { done: await book() };
      } catch (err) {
        const refused = err instanceof NotBookedError;
        deps.logger.warn(
          { id: x.id, refused, err: err instanceof Error ? err.message : String(err) },
          refused
            ? "booking refused before the books: nothing was booked"
            : "booking not known to be done: the flow offers to check under the same id",
        );
        return { refused };
      }
    });
    if ("done" in r) return r.done;
    if (r.refused) {
      await flow.reply(t("cash-not-booked", { ref: x.id }));
      return null;
    }
    flow.useWords(x.command === "/cashin" ? UNSURE_WORDS : UNSURE_WORDS_ADMIN);
    if (tries >= MAX_BOOKING_TRIES) {
      await flow.reply(t("cash-unsure-final", { ref: x.id, command: x.command, tries }));
      return null;
    }
    await flow.choose(
      t("cash-unsure", { ref: x.id, command: x.command }),
      [{ label: t("cash-unsure-check"), value: "check" }],
      { columns: 1 },
    );
  }
}

/** Confirm (or Cancel, which the loop handles) as one button. */
export async function confirm(flow: Flow, text: string): Promise<void> {
  await flow.choose(text, [{ label: flow.t("common-confirm"), value: "yes" }], { columns: 1 });
}

/** The refusals every booking can answer. Returns the text, or null when booked. */
export function refusalText(t: Translate, r: MoveResult): string | null {
  if (r.ok) return null;
  if (r.code === "insufficient_funds") {
    return t("cashin-short", {
      balance: money(t, r.availablePaisa),
      shortfall: money(t, r.shortfallPaisa),
    });
  }
  return t("accounts-failed");
}
