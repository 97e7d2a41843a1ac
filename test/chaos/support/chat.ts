import type {
  BotApiEmulator,
  MessageMatch,
  TranscriptEntry,
} from "../../../src/playground/emulator/index.ts";

/** One emulator user, used the way a person uses the chat: type, tap, read. */
export class ChatUser {
  constructor(
    readonly emu: BotApiEmulator,
    readonly id: number,
    fields: { first_name?: string; language_code?: string; username?: string } = {},
  ) {
    emu.users.upsert(id, { first_name: fields.first_name ?? `Chaos${id}`, ...fields });
  }

  chat(): TranscriptEntry[] {
    return this.emu.chat(this.id);
  }

  botMessages(): TranscriptEntry[] {
    return this.chat().filter((m) => m.from === "bot");
  }

  lastId(): number {
    return this.chat().at(-1)?.id ?? 0;
  }

  async say(text: string, expect?: MessageMatch, timeoutMs = 10_000): Promise<TranscriptEntry> {
    const { message_id } = this.emu.sendText(this.id, text);
    return this.emu.waitForBotMessage(this.id, expect, { afterId: message_id, timeoutMs });
  }

  async tap(label: string | RegExp, expect?: MessageMatch, timeoutMs = 10_000) {
    const after = this.lastId();
    this.emu.clickButton(this.id, typeof label === "string" ? label : this.findLabel(label));
    return this.emu.waitForBotMessage(this.id, expect, { afterId: after, timeoutMs });
  }

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

  hasButton(label: string | RegExp, entry?: TranscriptEntry): boolean {
    const rows = entry ? [entry] : this.chat();
    return rows.some((m) =>
      (m.inlineKeyboard ?? [])
        .flat()
        .some((b) => (typeof label === "string" ? b.text === label : label.test(b.text))),
    );
  }

  async waitFor(match: MessageMatch, timeoutMs = 10_000): Promise<TranscriptEntry> {
    return this.emu.waitForBotMessage(this.id, match, { timeoutMs });
  }
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
