import { randomUUID } from "node:crypto";
import { InlineKeyboard } from "grammy";
import type { Message } from "grammy/types";
import {
  type AmountBounds,
  checkAmount,
  type RuleError,
  type RuleResult,
  validateAmount,
} from "../../catalog/index.ts";
import type { Order } from "../../orders/model.ts";
import { isProviderError } from "../../provider/index.ts";
import type { BotContext, FlowContext, FlowConversation } from "../context.ts";
import { type BotDeps, type OrderDraft, type Role, roleOf } from "../deps.ts";
import { formatRupees } from "../format.ts";
import {
  DEFAULT_LOCALE,
  type Locale,
  localeFromLanguageCode,
  type Translate,
  translator,
} from "../i18n.ts";
import { receiptText } from "../render.ts";

/**
 * The building blocks every conversation flow is made of. Each question is one message with its
 * own buttons; only buttons of the current question count (older ones answer "no longer active"),
 * every answer is validated and re-asked with a reason, Cancel and /cancel work at every step, and
 * another command leaves the flow and runs. Side effects go through `conversation.external` so a
 * replay never repeats them.
 */

export interface Choice {
  label: string;
  value: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** Callback data of the toolkit's own buttons. Values are prefixed so they cannot collide. */
const CB = { cancel: "x", confirm: "ok", retry: "r", value: "v:", page: "p:" } as const;

/** Telegram allows 64 bytes of callback data. */
const MAX_CALLBACK_VALUE = 60;
const MAX_TEXT_ANSWER = 200;
/** Quick-answer buttons for amount questions, in rupees (only those within the bounds are shown). */
const QUICK_AMOUNTS = [100, 200, 500, 1000];

export interface FlowEnv {
  locale: Locale;
  userId: number;
  chatId: number;
  firstName: string;
  role: Role;
  savedNumbers: string[];
}

export type LookupResult<T> = { ok: true; value: T } | { ok: false; message: string };

function isCommand(u: FlowContext): boolean {
  return /^\/[A-Za-z]/.test(u.message?.text ?? "");
}

/** Buttons of the main menu and other global messages: pressing one leaves the current flow. */
const GLOBAL_CALLBACK = /^(m|lang|rep):/;

function isCancel(u: FlowContext): boolean {
  if (u.callbackQuery?.data === CB.cancel) return true;
  return /^\/cancel(@\w+)?(\s|$)/i.test(u.message?.text ?? "");
}

export class Flow {
  readonly t: Translate;

  private constructor(
    private readonly conversation: FlowConversation,
    private readonly ctx: FlowContext,
    readonly deps: BotDeps,
    readonly env: FlowEnv,
  ) {
    this.t = translator(deps.i18n, env.locale);
  }

  /** Reads who is talking and in which language, once, through `external` (replay-safe). */
  static async start(
    conversation: FlowConversation,
    ctx: FlowContext,
    deps: BotDeps,
  ): Promise<Flow> {
    const env = await conversation.external(
      (outer: BotContext): FlowEnv => ({
        locale:
          outer.session.locale ??
          localeFromLanguageCode(outer.from?.language_code) ??
          DEFAULT_LOCALE,
        userId: outer.from?.id ?? 0,
        chatId: outer.chat?.id ?? 0,
        firstName: outer.from?.first_name ?? "",
        role: roleOf(deps.settings, outer.from?.id),
        savedNumbers: [...(outer.session.savedNumbers ?? [])],
      }),
    );
    return new Flow(conversation, ctx, deps, env);
  }

  /**
   * Turns a catalogue rule result into a user-facing answer in this flow's language; `region` picks
   * the currency amounts in the reason are shown in (₹ for India).
   */
  rule<T>(r: RuleResult<T>, region: "np" | "in" = "np"): Parsed<T> {
    return r.ok ? r : { ok: false, error: this.ruleError(r.error, region) };
  }

  ruleError(e: RuleError, region: "np" | "in" = "np"): string {
    switch (e.code) {
      case "length":
        return this.t("err-length", { expected: e.expected, actual: e.actual });
      case "prefix":
        return this.t("err-prefix", { allowed: e.allowed.join(", ") });
      case "amount_below":
        return this.t("err-amount-below", { min: formatRupees(e.minPaisa, region) });
      case "amount_above":
        return this.t("err-amount-above", { max: formatRupees(e.maxPaisa, region) });
      case "too_long":
        return this.t("err-too-long", { max: e.max });
      default:
        return this.t(`err-${e.code.replace(/_/g, "-")}`);
    }
  }

  reply(text: string, other?: Parameters<FlowContext["reply"]>[1]): Promise<Message.TextMessage> {
    return this.ctx.reply(text, other);
  }

  /** The next update of this chat, after the idle, cancel and other-command checks. */
  private async next(): Promise<FlowContext> {
    const before = await this.conversation.now();
    const u = await this.conversation.wait();
    const after = await this.conversation.now();
    if (after - before > this.deps.settings.idleMs) {
      if (u.callbackQuery) await u.answerCallbackQuery();
      const minutes = Math.max(1, Math.round(this.deps.settings.idleMs / 60_000));
      await u.reply(this.t("common-idle-ended", { minutes }));
      await this.conversation.halt({ next: isCommand(u) && !isCancel(u) });
    }
    if (isCancel(u)) {
      if (u.callbackQuery) await u.answerCallbackQuery();
      await u.reply(this.t("common-cancelled"));
      await this.conversation.halt();
    }
    // Another command or a menu button leaves the flow and is handled as if no flow had been running.
    if (isCommand(u) || GLOBAL_CALLBACK.test(u.callbackQuery?.data ?? "")) {
      await this.conversation.halt({ next: true });
    }
    return u;
  }

  /**
   * A callback on `prompt` with our prefix, or null after answering stale ones. A button on a
   * message NEWER than the question being asked means the chat is ahead of this conversation: a
   * process died after sending the next question and before saving that it had (the update that
   * caused it is not delivered again). Then the question being asked is shown again (`reshow`), so
   * the user is not left tapping a button that can never work.
   */
  private async ownCallback(
    u: FlowContext,
    prompt: Message,
    reshow: () => Promise<void>,
  ): Promise<string | null> {
    const cb = u.callbackQuery;
    if (!cb) return null;
    if (cb.message?.message_id !== prompt.message_id || typeof cb.data !== "string") {
      await u.answerCallbackQuery({ text: this.t("common-button-expired") });
      if ((cb.message?.message_id ?? 0) > prompt.message_id) await reshow();
      return null;
    }
    return cb.data;
  }

  private cancelRow(kb: InlineKeyboard): InlineKeyboard {
    // A new row only after buttons: Telegram is not asked to show an empty row.
    if (kb.inline_keyboard.at(-1)?.length) kb.row();
    return kb.text(this.t("common-cancel"), CB.cancel);
  }

  private choiceKeyboard(choices: Choice[], columns: number): InlineKeyboard {
    const kb = new InlineKeyboard();
    choices.forEach((c, i) => {
      if (i > 0 && i % columns === 0) kb.row();
      kb.text(c.label, CB.value + c.value);
    });
    return kb;
  }

  /**
   * Asks for a typed answer (optionally with shortcut buttons) until `parse` accepts it. Stickers,
   * photos and over-long texts are answered with a reason; nothing typed earlier is lost.
   */
  async ask<T>(
    prompt: string,
    parse: (text: string) => Parsed<T>,
    opts: { choices?: Choice[]; columns?: number } = {},
  ): Promise<T> {
    const choices = (opts.choices ?? []).filter((c) => c.value.length <= MAX_CALLBACK_VALUE);
    const keyboard = () => this.cancelRow(this.choiceKeyboard(choices, opts.columns ?? 1));
    let msg: Message = await this.ctx.reply(prompt, { reply_markup: keyboard() });
    for (;;) {
      const u = await this.next();
      let input: string;
      if (u.callbackQuery) {
        const data = await this.ownCallback(u, msg, async () => {
          msg = await u.reply(prompt, { reply_markup: keyboard() });
        });
        if (data === null) continue;
        await u.answerCallbackQuery();
        if (!data.startsWith(CB.value)) continue;
        input = data.slice(CB.value.length);
      } else if (typeof u.message?.text === "string") {
        input = u.message.text;
      } else {
        msg = await u.reply(this.t("common-send-text"), { reply_markup: keyboard() });
        continue;
      }
      const r: Parsed<T> =
        input.length > MAX_TEXT_ANSWER
          ? { ok: false, error: this.t("err-too-long", { max: MAX_TEXT_ANSWER }) }
          : parse(input);
      if (r.ok) return r.value;
      msg = await u.reply(`${r.error}\n${this.t("common-try-again")}`, {
        reply_markup: keyboard(),
      });
    }
  }

  /**
   * Asks for an amount within `bounds`, typed or from quick buttons of common amounts that fit.
   * The prompt gets `min` and `max` (formatted for the region) besides `params`.
   */
  async askAmount(
    promptKey: string,
    bounds: AmountBounds,
    opts: { region?: "np" | "in"; params?: Record<string, string | number> } = {},
  ): Promise<number> {
    const region = opts.region ?? "np";
    const prompt = this.t(promptKey, {
      ...opts.params,
      min: formatRupees(bounds.minPaisa, region),
      max: formatRupees(bounds.maxPaisa, region),
    });
    const choices = QUICK_AMOUNTS.filter((r) => checkAmount(r * 100, bounds).ok).map((r) => ({
      label: formatRupees(r * 100, region),
      value: String(r),
    }));
    return this.ask(prompt, (text) => this.rule(validateAmount(text, bounds), region), {
      choices,
      columns: 4,
    });
  }

  /**
   * Offers a finite choice as buttons, paged when long; when `searchable`, typed text filters the
   * choices by name. `typed` lets a flow accept a typed answer as well (e.g. an amount).
   */
  async choose(
    prompt: string,
    all: Choice[],
    opts: {
      pageSize?: number;
      columns?: number;
      searchable?: boolean;
      typed?: (text: string) => Parsed<string>;
    } = {},
  ): Promise<string> {
    const pageSize = opts.pageSize ?? 8;
    const columns = opts.columns ?? 2;
    let shown = all;
    let page = 0;
    const pages = () => Math.max(1, Math.ceil(shown.length / pageSize));
    const keyboard = () => {
      const kb = this.choiceKeyboard(shown.slice(page * pageSize, (page + 1) * pageSize), columns);
      if (pages() > 1) {
        kb.row()
          .text(this.t("common-prev"), `${CB.page}${(page + pages() - 1) % pages()}`)
          .text(this.t("common-page", { page: page + 1, pages: pages() }), `${CB.page}${page}`)
          .text(this.t("common-next"), `${CB.page}${(page + 1) % pages()}`);
      }
      return this.cancelRow(kb);
    };
    const hint = opts.searchable ? `\n${this.t("common-search-hint")}` : "";
    let msg: Message = await this.ctx.reply(prompt + hint, { reply_markup: keyboard() });
    for (;;) {
      const u = await this.next();
      if (u.callbackQuery) {
        const data = await this.ownCallback(u, msg, async () => {
          msg = await u.reply(prompt + hint, { reply_markup: keyboard() });
        });
        if (data === null) continue;
        if (data.startsWith(CB.page)) {
          const target = Number(data.slice(CB.page.length));
          await u.answerCallbackQuery();
          if (Number.isInteger(target) && target >= 0 && target < pages() && target !== page) {
            page = target;
            await u.editMessageReplyMarkup({ reply_markup: keyboard() });
          }
          continue;
        }
        const value = data.startsWith(CB.value) ? data.slice(CB.value.length) : undefined;
        if (value !== undefined && all.some((c) => c.value === value)) {
          await u.answerCallbackQuery();
          return value;
        }
        await u.answerCallbackQuery({ text: this.t("common-button-expired") });
        continue;
      }
      const text = u.message?.text;
      if (typeof text !== "string") {
        msg = await u.reply(this.t("common-send-text"), { reply_markup: keyboard() });
        continue;
      }
      if (opts.typed) {
        const r = opts.typed(text);
        if (r.ok) return r.value;
        if (!opts.searchable) {
          msg = await u.reply(`${r.error}\n${this.t("common-try-again")}`, {
            reply_markup: keyboard(),
          });
          continue;
        }
      }
      if (opts.searchable) {
        const query = text.trim().slice(0, 50);
        const needle = query.toLowerCase();
        const found = all.filter((c) => c.label.toLowerCase().includes(needle));
        if (found.length === 1 && found[0]) return found[0].value;
        if (found.length === 0) {
          msg = await u.reply(this.t("common-search-none", { query }), {
            reply_markup: keyboard(),
          });
          continue;
        }
        shown = found;
        page = 0;
        msg = await u.reply(this.t("common-search-results", { query }), {
          reply_markup: keyboard(),
        });
        continue;
      }
      msg = await u.reply(this.t("common-use-buttons"), { reply_markup: keyboard() });
    }
  }

  /**
   * Runs a provider lookup through `external`. A transient failure (timeout, 5xx, 429, network,
   * malformed answer) keeps every answer so far and offers Retry; a rejection comes back as a
   * message for the flow to show (e.g. "customer not found") before re-asking.
   */
  async lookup<T>(op: () => Promise<T>): Promise<LookupResult<T>> {
    for (;;) {
      const r = await this.conversation.external(async () => {
        try {
          return { ok: true as const, value: await op() };
        } catch (e) {
          if (!isProviderError(e)) throw e;
          const transient = e.retryable || e.kind === "malformed";
          const message = e.kind === "rejected" ? (e.providerMessage ?? "") : "";
          return { ok: false as const, transient, message };
        }
      });
      if (r.ok) return r;
      if (!r.transient) return { ok: false, message: r.message || this.t("common-error") };
      await this.waitForRetry();
    }
  }

  private async waitForRetry(): Promise<void> {
    const kb = new InlineKeyboard().text(this.t("common-retry"), CB.retry);
    let msg: Message = await this.ctx.reply(this.t("common-lookup-failed"), {
      reply_markup: this.cancelRow(kb),
    });
    for (;;) {
      const u = await this.next();
      if (u.callbackQuery) {
        const data = await this.ownCallback(u, msg, async () => {
          msg = await u.reply(this.t("common-lookup-failed"), { reply_markup: this.cancelRow(kb) });
        });
        if (data === null) continue;
        await u.answerCallbackQuery();
        if (data === CB.retry) return;
        continue;
      }
      msg = await u.reply(this.t("common-lookup-failed"), { reply_markup: this.cancelRow(kb) });
    }
  }

  /** Shows the confirmation and waits for Confirm (true) or a cancel (the flow ends). */
  private async confirm(lines: string[]): Promise<FlowContext> {
    const text = [this.t("confirm-title"), "", ...lines, "", this.t("confirm-question")].join("\n");
    const kb = new InlineKeyboard().text(this.t("common-confirm"), CB.confirm);
    let msg: Message = await this.ctx.reply(text, { reply_markup: this.cancelRow(kb) });
    for (;;) {
      const u = await this.next();
      if (u.callbackQuery) {
        const data = await this.ownCallback(u, msg, async () => {
          msg = await u.reply(text, { reply_markup: this.cancelRow(kb) });
        });
        if (data === null) continue;
        await u.answerCallbackQuery();
        if (data === CB.confirm) return u;
        continue;
      }
      msg = await u.reply(`${this.t("common-use-buttons")}\n\n${text}`, {
        reply_markup: this.cancelRow(kb),
      });
    }
  }

  /** The lines of a confirmation for a draft: operator, number, package, amount, fee. */
  summary(draft: OrderDraft, extra: string[] = []): string[] {
    const lines = [
      this.t("confirm-operator", { operator: draft.operatorName }),
      this.t("confirm-number", { number: draft.connectionNo }),
      ...extra,
    ];
    if (draft.details.packageName)
      lines.push(this.t("confirm-package", { package: draft.details.packageName }));
    lines.push(this.t("confirm-amount", { amount: formatRupees(draft.amountPaisa, draft.region) }));
    return lines;
  }

  /**
   * Confirm and execute, exactly once. The idempotency key is fixed (through `external`) before the
   * confirmation is shown, so a double tap, a redelivered update or a replay after a crash all
   * reach `orders.place` with the same key and get the same order; `orders.submit` sends the
   * execute only for an order not yet submitted. Returns null when a limit refused the order.
   */
  async confirmAndPlace(draft: OrderDraft, extraLines: string[] = []): Promise<Order | null> {
    const { userId, chatId, locale } = this.env;
    const key = await this.conversation.external(() => randomUUID());
    const early = await this.conversation.external(() =>
      this.deps.limits.check(userId, draft.amountPaisa),
    );
    if (!early.ok) {
      await this.ctx.reply(this.limitText(early.reason));
      return null;
    }
    const pressed = await this.confirm(this.summary(draft, extraLines));
    // The buttons go away so there is nothing left to tap twice.
    await pressed.editMessageReplyMarkup({ reply_markup: new InlineKeyboard() });
    const verdict = await this.conversation.external(() =>
      this.deps.limits.reserve(userId, draft.amountPaisa, key),
    );
    if (!verdict.ok) {
      await this.ctx.reply(this.limitText(verdict.reason));
      return null;
    }
    const order = await this.conversation.external(() =>
      this.deps.orders.place({ ...draft, idempotencyKey: key, userId, chatId, locale }),
    );
    const receipt = await this.ctx.reply(receiptText(this.t, { ...order, status: "submitting" }));
    const submitted = await this.conversation.external(async () => {
      await this.deps.orders.attachReceipt(order.reference, receipt.message_id);
      return this.deps.orders.submit(order.reference);
    });
    await this.remember(draft);
    return submitted;
  }

  private limitText(reason: "daily_cap" | "rate"): string {
    return reason === "daily_cap"
      ? this.t("limit-daily-cap", { cap: formatRupees(this.deps.settings.dailyCapPaisa) })
      : this.t("limit-rate");
  }

  /** Keeps the number for next time (mobile-like categories), newest first, at most five. */
  private async remember(draft: OrderDraft): Promise<void> {
    if (!["mobile", "datapack", "landline", "india"].includes(draft.category)) return;
    await this.conversation.external((outer: BotContext) => {
      const rest = (outer.session.savedNumbers ?? []).filter((n) => n !== draft.connectionNo);
      outer.session.savedNumbers = [draft.connectionNo, ...rest].slice(0, 5);
    });
  }
}
