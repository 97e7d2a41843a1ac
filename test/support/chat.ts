import { expect } from "vitest";
import type {
  BotApiEmulator,
  MessageMatch,
  TranscriptEntry,
} from "../../dev/playground/emulator/index.ts";

/**
 * The one chat driver: one emulator user, used the way a person uses the chat: type, tap, read.
 * The e2e tests get it as `TestUser` from their system fixture, the chaos tests build it over an
 * emulator of their own; the bill-flow steps every category shares live here so a test says only
 * what is particular to its category.
 */
export class ChatUser {
  readonly timeoutMs: number;

  constructor(
    readonly emu: BotApiEmulator,
    readonly id: number,
    fields: { first_name?: string; language_code?: string; username?: string } = {},
    opts: { timeoutMs?: number; defaultName?: string } = {},
  ) {
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    emu.users.upsert(id, {
      first_name: fields.first_name ?? `${opts.defaultName ?? "Chaos"}${id}`,
      ...fields,
    });
  }

  /** The chat as the user sees it now. */
  chat(): TranscriptEntry[] {
    return this.emu.chat(this.id);
  }

  botMessages(): TranscriptEntry[] {
    return this.chat().filter((m) => m.from === "bot");
  }

  botTexts(): string[] {
    return this.botMessages().map((m) => m.text);
  }

  lastId(): number {
    return this.chat().at(-1)?.id ?? 0;
  }

  /** Types a message and waits for the bot's next message matching `expect`. */
  async say(
    text: string,
    expect?: MessageMatch,
    timeoutMs = this.timeoutMs,
  ): Promise<TranscriptEntry> {
    const { message_id } = this.emu.sendText(this.id, text);
    return this.emu.waitForBotMessage(this.id, expect, { afterId: message_id, timeoutMs });
  }

  /** Taps the button labelled `label` (newest message that has it) and waits for the next bot message. */
  async tap(
    label: string | RegExp,
    expect?: MessageMatch,
    timeoutMs = this.timeoutMs,
  ): Promise<TranscriptEntry> {
    const after = this.lastId();
    this.emu.clickButton(this.id, typeof label === "string" ? label : this.findLabel(label));
    return this.emu.waitForBotMessage(this.id, expect, { afterId: after, timeoutMs });
  }

  /** Taps without waiting for a new message (e.g. paging edits the same message). */
  press(label: string | RegExp): void {
    this.emu.clickButton(this.id, typeof label === "string" ? label : this.findLabel(label));
  }

  /** Label of the newest button matching `re`. */
  findLabel(re: RegExp): string {
    for (const m of [...this.chat()].reverse()) {
      for (const row of m.inlineKeyboard ?? [])
        for (const b of row) if (re.test(b.text)) return b.text;
    }
    throw new Error(`no button matches ${re} in chat ${this.id}`);
  }

  /** The button labels of `entry` (default: the bot's last message). */
  buttons(entry?: TranscriptEntry): string[] {
    const m = entry ?? this.emu.lastBotMessage(this.id);
    return (m?.inlineKeyboard ?? []).flat().map((b) => b.text);
  }

  hasButton(label: string | RegExp, entry?: TranscriptEntry): boolean {
    const rows = entry ? [entry] : this.chat();
    return rows.some((m) =>
      (m.inlineKeyboard ?? [])
        .flat()
        .some((b) => (typeof label === "string" ? b.text === label : label.test(b.text))),
    );
  }

  /** Waits until some bot message (new or edited) matches. */
  async waitFor(match: MessageMatch, timeoutMs = this.timeoutMs): Promise<TranscriptEntry> {
    return this.emu.waitForBotMessage(this.id, match, { timeoutMs });
  }

  /** `/recharge`, then the menu button `category`; resolves with the flow's first question. */
  async menu(category: string, firstQuestion: MessageMatch): Promise<TranscriptEntry> {
    await this.say("/recharge", /What would you like to pay/);
    return this.tap(category, firstQuestion);
  }

  /**
   * A mobile top-up up to the confirmation: number, the detected operator, amount. Resolves with
   * the bot's answer to the amount (`answer`: the confirmation, or a refusal such as a limit).
   */
  async mobileToConfirm(
    number: string,
    amount: string,
    answer: MessageMatch = /Please check your order/,
  ): Promise<TranscriptEntry> {
    await this.menu("📱 Mobile top-up", /Which mobile number/);
    await this.say(number, /How much/);
    return this.say(amount, answer);
  }

  /** A complete mobile order through the chat; resolves with its reference. */
  async placeMobile(number: string, amount: string): Promise<string> {
    await this.mobileToConfirm(number, amount);
    const { ref } = await this.confirm();
    if (!ref) throw new Error("no reference in the receipt");
    return ref;
  }

  /** Pages a paged list forward (an edit of the same message) and waits for page `page`. */
  async nextPage(list: TranscriptEntry, page = "2/2"): Promise<TranscriptEntry> {
    this.press("›");
    return this.emu.waitForBotMessage(
      this.id,
      (m) => m.id === list.id && (m.inlineKeyboard ?? []).flat().some((b) => b.text === page),
      { timeoutMs: this.timeoutMs },
    );
  }

  /** A bill was shown: waits for the amount question and taps "pay the due"; resolves with the confirmation. */
  async payDue(due: string): Promise<TranscriptEntry> {
    await this.waitFor(/Pay the due of/);
    return this.tap(`💳 Pay the due ${due}`, /Please check your order/);
  }

  /** Taps ✅ Confirm on the confirmation; resolves with the receipt and the order's reference. */
  async confirm(): Promise<{ receipt: TranscriptEntry; ref: string }> {
    const receipt = await this.tap("✅ Confirm", /Order \d+/);
    return { receipt, ref: refOf(receipt.text) };
  }

  /** Waits for the final push of order `ref`. */
  async outcome(ref: string, outcome: "succeeded" | "failed"): Promise<TranscriptEntry> {
    return this.waitFor(new RegExp(`Order ${ref} ${outcome}`));
  }

  /** Confirms and waits for the final push: the end of every flow. */
  async confirmUntil(
    outcome: "succeeded" | "failed",
  ): Promise<{ receipt: TranscriptEntry; ref: string; push: TranscriptEntry }> {
    const { receipt, ref } = await this.confirm();
    return { receipt, ref, push: await this.outcome(ref, outcome) };
  }
}

/** The order reference a receipt or push names ("" when it names none). */
export const refOf = (text: string): string => /Order (\d+)/.exec(text)?.[1] ?? "";

/** Every part is in `text` (a confirmation's lines, a push's summary). */
export function expectParts(text: string, parts: readonly string[]): void {
  for (const part of parts) expect(text, part).toContain(part);
}

/** What every failure push says: nothing charged, and a reason. */
export function expectFailurePush(push: TranscriptEntry): void {
  expect(push.text).toContain("Nothing was charged");
  expect(push.text).toMatch(/Reason: .+/);
}

/** The push a final outcome sends (English): "✅ Order 123 succeeded." / "❌ Order 123 failed." */
export const FINAL_PUSH = /^(?:✅|❌) Order (\d+) (succeeded|failed)\./;

/** Final pushes per order reference in the given chats: how many, and what each said. */
export function finalPushes(
  emu: BotApiEmulator,
  chatIds: Iterable<number>,
): Map<string, { chatId: number; outcomes: Array<"succeeded" | "failed"> }> {
  const out = new Map<string, { chatId: number; outcomes: Array<"succeeded" | "failed"> }>();
  for (const chatId of chatIds) {
    for (const m of emu.chat(chatId)) {
      if (m.from !== "bot") continue;
      const match = FINAL_PUSH.exec(m.text);
      if (!match) continue;
      const ref = match[1] ?? "";
      const entry = out.get(ref) ?? { chatId, outcomes: [] };
      entry.outcomes.push(match[2] as "succeeded" | "failed");
      out.set(ref, entry);
    }
  }
  return out;
}

/** The final pushes of one order as the chat shows them (with their times). */
export function pushesOf(
  emu: BotApiEmulator,
  chatId: number,
  reference: string,
): TranscriptEntry[] {
  return emu
    .chat(chatId)
    .filter((m) => m.from === "bot" && FINAL_PUSH.exec(m.text)?.[1] === reference);
}

/** Every edit of every bot message, by "chatId:messageId", in order. */
export function recordEdits(emu: BotApiEmulator): Map<string, string[]> {
  const edits = new Map<string, string[]>();
  emu.on("edit", (e) => {
    const key = `${e.chatId}:${e.message.id}`;
    const list = edits.get(key) ?? [];
    list.push(e.message.text);
    edits.set(key, list);
  });
  return edits;
}
