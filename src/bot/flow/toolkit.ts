import type { AmountBounds, RuleError, RuleResult } from "../../catalog/index.ts";
import type { Order } from "../../orders/model.ts";
import type { SavedEntry } from "../../saved/index.ts";
import { pushChatOf } from "../../whatsapp/chat-ids.ts";
import type { BotContext, FlowContext, FlowConversation } from "../context.ts";
import type { SentMessage } from "../conversation-storage.ts";
import { type BotDeps, type OrderDraft, type Role, roleIn } from "../deps.ts";
import {
  DEFAULT_LOCALE,
  type Locale,
  localeFromLanguageCode,
  type Translate,
  translator,
} from "../i18n.ts";
import { weighBalance } from "./balance.ts";
import * as checkout from "./checkout.ts";
import { type LookupResult, lookup } from "./lookup.ts";
import { spendOf } from "./payment.ts";
import * as prompts from "./prompts.ts";
import { asidesOf, type FlowScope, type FlowWords, ORDER_WORDS } from "./scope.ts";
import { runSteps, type Step } from "./steps.ts";

/**
 * What a conversation flow is written with: questions (prompts.ts and lookup.ts, all on the one
 * wait loop of prompt-loop.ts), named steps (steps.ts: Back, and the confirmation's Edit buttons)
 * and the checkout (checkout.ts). Each question is one message with its own buttons; only buttons
 * of the current question count, every answer is validated and re-asked with a reason, Cancel and
 * /cancel work at every step, /help and the like are answered in place, and another command runs
 * after "Leave this order?". Side effects go through `conversation.external` so a replay never
 * repeats them.
 */

export type { LookupResult } from "./lookup.ts";
export type { Choice, Parsed } from "./prompts.ts";
export { wordedMax } from "./prompts.ts";
export type { Aside, FlowScope, FlowWords } from "./scope.ts";
export type { Step } from "./steps.ts";

/** What a draft's price depends on but its amount: the category, operator and region. */
export type Priced = Pick<OrderDraft, "category" | "operatorId" | "region">;

/**
 * The largest amount in `bounds` whose spend fits `left` (the least one does, the largest not),
 * by bisection (a price never falls as its amount grows). Exact to the paisa: what is left often
 * has paisa, and an amount that fits is never refused (the question words it in whole rupees).
 */
function largestWithin(
  bounds: AmountBounds,
  spend: (amountPaisa: number) => number,
  left: number,
): number {
  let fits = bounds.minPaisa;
  let over = bounds.maxPaisa;
  while (over - fits > 1) {
    const mid = Math.floor((fits + over) / 2);
    if (spend(mid) <= left) fits = mid;
    else over = mid;
  }
  return fits;
}

export interface FlowEnv {
  locale: Locale;
  userId: number;
  chatId: number;
  firstName: string;
  role: Role;
}

export class Flow {
  readonly t: Translate;
  private readonly scope: FlowScope;
  /** What the customer may still spend today, read before the first question (`steps`). */
  private spendLeftPaisa: number | undefined;
  /**
   * Reads begun with the limits' read before the first question (`steps`), each taken once by the
   * `external` that needs it later in the same update (a flow runs afresh on every update).
   */
  private readonly ahead = new Map<"balance" | "saved", Promise<unknown>>();

  private constructor(
    conversation: FlowConversation,
    private readonly ctx: FlowContext,
    readonly deps: BotDeps,
    readonly env: FlowEnv,
    flowId: string | undefined,
    words: FlowWords,
  ) {
    // Always in the current locale: /language in the middle of a flow switches it (prompt-loop.ts).
    const t = (key: string, params?: Record<string, string | number>) =>
      translator(deps.i18n, this.env.locale)(key, params);
    // `locale` is read on use, so money signs follow a switch too.
    this.t = Object.defineProperty(t, "locale", { get: () => this.env.locale }) as Translate;
    this.scope = {
      conversation,
      ctx,
      deps,
      userId: env.userId,
      t: this.t,
      setLocale: (locale) => {
        this.env.locale = locale;
      },
      nav: { back: false, asked: 0, ...(flowId ? { flow: flowId } : {}) },
      asides: asidesOf(ctx),
      words,
    };
  }

  /** Reads who is talking and in which language, once, through `external` (replay-safe). */
  static async start(
    conversation: FlowConversation,
    ctx: FlowContext,
    deps: BotDeps,
    /** The conversation's id when it is a menu entry (the idle notice's Start again enters it). */
    flowId?: string,
    /** What Cancel and Leave say: an order's unless the flow is none (a top-up, a cash-in). */
    words: FlowWords = ORDER_WORDS,
  ): Promise<Flow> {
    const env = await conversation.external(
      (outer: BotContext): FlowEnv => ({
        locale:
          outer.session.locale ??
          localeFromLanguageCode(outer.from?.language_code) ??
          DEFAULT_LOCALE,
        userId: outer.from?.id ?? 0,
        chatId: pushChatOf(outer.chat?.id ?? 0, outer.from?.id ?? 0),
        firstName: outer.from?.first_name ?? "",
        role: roleIn(deps.settings, outer),
      }),
    );
    return new Flow(conversation, ctx, deps, env, flowId, words);
  }

  /** A catalogue rule result as an answer in this flow's language (₹ amounts when `region` is "in"). */
  rule<T>(r: RuleResult<T>, region: prompts.Region = "np"): prompts.Parsed<T> {
    return prompts.ruleAnswer(this.t, r, region);
  }

  ruleError(e: RuleError, region: prompts.Region = "np"): string {
    return prompts.ruleError(this.t, e, region);
  }

  reply(text: string, other?: Parameters<FlowContext["reply"]>[1]): Promise<SentMessage> {
    return this.ctx.reply(text, other);
  }

  ask<T>(
    prompt: string,
    parse: (text: string) => prompts.Parsed<T>,
    opts?: prompts.AskOptions,
  ): Promise<T> {
    return prompts.ask(this.scope, prompt, parse, opts);
  }

  /** What Cancel, Leave and the idle notice say from now on (see FlowScope.words). */
  useWords(words: FlowWords): void {
    this.scope.words = words;
  }

  /** The time, recorded on first run so that a replay sees the same (conversations v2). */
  now(): Promise<number> {
    return this.scope.conversation.now();
  }

  /**
   * The sender's role now, under this process's settings, read from the update being handled
   * (recorded, so a replay sees the same). `env.role` is the one read at the flow's start and
   * replayed from its log: an agent or admin removed from AGENT_IDS / ADMIN_IDS while the flow
   * waited (a restart, the other instance) would still move money at Confirm with it.
   */
  roleNow(): Promise<Role> {
    const settings = this.deps.settings;
    return this.scope.conversation.external((outer: BotContext) => roleIn(settings, outer));
  }

  /** Says `text` and ends the flow (nothing was placed). */
  async end(text: string): Promise<never> {
    await this.ctx.reply(text);
    return this.scope.conversation.halt();
  }

  /** An amount of money in (a top-up, a cash-in): within `bounds`, no spend cap. */
  askAmount(
    promptKey: string,
    bounds: AmountBounds,
    opts?: prompts.AmountOptions,
  ): Promise<number> {
    return prompts.askAmount(this.scope, promptKey, bounds, opts);
  }

  /**
   * An order's amount: within `bounds` narrowed by what the customer may still spend today
   * (`spendable`, which needs what the order is priced by), in the rupees of `priced`'s region.
   */
  async askOrderAmount(
    promptKey: string,
    bounds: AmountBounds,
    priced: Priced,
    params?: Record<string, string | number>,
  ): Promise<number> {
    const narrowed = await this.spendable(bounds, priced);
    return this.askNarrowedAmount(promptKey, narrowed, priced.region, params);
  }

  /**
   * An order's amount within bounds `spendable` already narrowed (its caller read them first):
   * not worked out again, as each `external` stays in the conversation's log (and bytes) until
   * the flow ends.
   */
  askNarrowedAmount(
    promptKey: string,
    narrowed: AmountBounds,
    region: Priced["region"],
    params?: Record<string, string | number>,
  ): Promise<number> {
    return prompts.askAmount(this.scope, promptKey, narrowed, { region, params, wholeMax: true });
  }

  /**
   * `bounds` narrowed by what the customer may still spend today (known since the flow began).
   * The cap is in Nepal rupees and counts what the balance pays: an amount counts as its price
   * for `priced` (the draft but its amount), fee included and a ₹ amount converted, so the largest
   * amount is exactly the largest whose price fits (to the paisa; a question words it rounded
   * down to the whole rupee, `prompts.wordedMax`). When not even the
   * least amount is left, says so and ends the flow. Worked out in `external`: a replay reuses the
   * logged bounds, so a price changed meanwhile cannot send it down another path (Bad replay); the
   * cap itself is checked again at the confirmation and reserved at Confirm.
   */
  async spendable(bounds: AmountBounds, priced: Priced): Promise<AmountBounds> {
    const left = this.spendLeftPaisa;
    if (left === undefined) return bounds;
    const max = await this.scope.conversation.external(() => {
      const spend = (amountPaisa: number) => spendOf(this.deps, { ...priced, amountPaisa });
      if (spend(bounds.maxPaisa) <= left) return bounds.maxPaisa;
      return spend(bounds.minPaisa) > left ? null : largestWithin(bounds, spend, left);
    });
    if (max === null) {
      await this.ctx.reply(checkout.limitText(this.scope, "daily_cap"));
      return this.scope.conversation.halt();
    }
    return max === bounds.maxPaisa ? bounds : { ...bounds, maxPaisa: max };
  }

  /**
   * Whether an amount of `priced` (a bill's due) fits what the customer may still spend today,
   * fee included; worked out in `external` like `spendable`, so a replay takes the same path.
   */
  async fitsToday(amountPaisa: number, priced: Priced): Promise<boolean> {
    const left = this.spendLeftPaisa;
    if (left === undefined) return true;
    return this.scope.conversation.external(
      () => spendOf(this.deps, { ...priced, amountPaisa }) <= left,
    );
  }

  /**
   * Which of `amounts` of `priced` (a listing's packages) fit what the customer may still spend
   * today, fee included, in one `external` like `fitsToday`; `leftPaisa` is what is left (absent:
   * no cap read, all fit).
   */
  async fittingToday(
    amounts: readonly number[],
    priced: Priced,
  ): Promise<{ fits: boolean[]; leftPaisa?: number }> {
    const left = this.spendLeftPaisa;
    if (left === undefined) return { fits: amounts.map(() => true) };
    const fits = await this.scope.conversation.external(() =>
      amounts.map((amountPaisa) => spendOf(this.deps, { ...priced, amountPaisa }) <= left),
    );
    return { fits, leftPaisa: left };
  }

  /**
   * A category's whole flow: the limits are checked before the first question, then the steps
   * run (Back on every question after the first) and end in the confirmation, whose Edit buttons
   * ask one step again. `order` builds the draft and the confirmation's extra lines from the state.
   */
  async steps<S extends object>(
    state: S,
    steps: ReadonlyArray<Step<S>>,
    order: (state: S) => { draft: OrderDraft; lines?: string[] },
  ): Promise<Order | null> {
    if (!(await this.limitsUpFront())) return null;
    const balance = this.taken<number>("balance");
    if (!(await weighBalance(this.scope, this.env, balance))) return null;
    return runSteps(this.scope.nav, state, steps, (st) => {
      const { draft, lines } = order(st);
      return (edits) => checkout.confirmAndPlace(this.scope, this.env, draft, lines, { edits });
    });
  }

  /** The spend cap and the hourly count before anything is asked; false after saying which refuses. */
  private async limitsUpFront(): Promise<boolean> {
    const { userId } = this.env;
    const room = await this.scope.conversation.external(() => {
      // The balance and the saved numbers, which the first question reads next, are begun with
      // the limits' read: the three leave in one socket write (held for the turn), not one
      // round trip each. Reads only: a flow that stops here drops them.
      const { deps } = this;
      deps.holdWrites?.();
      if (deps.payment.mode === "prepaid")
        this.begin("balance", deps.payment.availablePaisa(userId));
      this.begin("saved", deps.saved.list(userId));
      return deps.limits.headroom(userId);
    });
    if (room.ordersLeft <= 0 || room.spendLeftPaisa < 100) {
      await this.ctx.reply(
        checkout.limitText(this.scope, room.ordersLeft <= 0 ? "rate" : "daily_cap"),
      );
      return false;
    }
    this.spendLeftPaisa = room.spendLeftPaisa;
    return true;
  }

  /** The customer's saved numbers or billers of `category`, newest used first (read through `external`). */
  async saved(category: string): Promise<SavedEntry[]> {
    const store = this.deps.saved;
    const { userId } = this.env;
    const all = await this.scope.conversation.external(
      () => this.taken<SavedEntry[]>("saved") ?? store.list(userId),
    );
    return all.filter((e) => e.category === category);
  }

  /** A read begun ahead; its failure surfaces where it is taken (or nowhere, if never taken). */
  private begin(name: "balance" | "saved", read: Promise<unknown>): void {
    read.catch(() => {});
    this.ahead.set(name, read);
  }

  /** The read begun ahead under `name`, once: later the caller reads for itself. */
  private taken<T>(name: "balance" | "saved"): Promise<T> | undefined {
    const read = this.ahead.get(name) as Promise<T> | undefined;
    this.ahead.delete(name);
    return read;
  }

  choose(prompt: string, all: prompts.Choice[], opts?: prompts.ChooseOptions): Promise<string> {
    return prompts.choose(this.scope, prompt, all, opts);
  }

  lookup<T>(op: () => Promise<T>): Promise<LookupResult<T>> {
    return lookup(this.scope, op);
  }

  summary(draft: OrderDraft, extra?: string[]): string[] {
    return checkout.summary(this.scope, draft, extra);
  }

  /** Confirm and place a draft made outside `steps` (a repeat): no Edit buttons. */
  async confirmAndPlace(draft: OrderDraft, extraLines?: string[]): Promise<Order | null> {
    const r = await checkout.confirmAndPlace(this.scope, this.env, draft, extraLines);
    return r !== null && "edit" in r ? null : r;
  }
}
