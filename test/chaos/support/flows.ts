import type { TranscriptEntry } from "../../../src/playground/emulator/index.ts";
import { type ChatUser, FINAL_PUSH } from "./chat.ts";
import { sleep } from "./env.ts";

const RECEIPT = /^🧾 Order (\d+)/;

/**
 * A mobile top-up as a patient person does it while the bot may be dying and coming back: look at
 * the last thing the bot said, do what it asks, and if nothing comes back for a while, look again
 * and do it again (a tap whose button is gone becomes a typed word, which makes the bot show the
 * question again). Pushes and receipts of earlier orders are not questions and are skipped.
 * Resolves with the reference of the new order's receipt.
 */
export async function patientMobileOrder(
  u: ChatUser,
  number: string,
  amount: string,
  known: Set<string>,
  opts: { deadlineMs?: number; quietMs?: number; thinkMs?: () => number } = {},
): Promise<{ reference: string; actions: number; retries: number }> {
  const deadline = Date.now() + (opts.deadlineMs ?? 120_000);
  const quietMs = opts.quietMs ?? 8_000;
  const isNoise = (m: TranscriptEntry) => {
    if (FINAL_PUSH.test(m.text)) return true;
    const r = RECEIPT.exec(m.text);
    return r !== null && known.has(r[1] ?? "");
  };
  let actions = 0;
  let retries = 0;
  let lastAction = "";
  for (;;) {
    if (Date.now() > deadline) {
      const tail = u
        .chat()
        .slice(-6)
        .map((m) => `${m.from}: ${m.text.slice(0, 80)}`)
        .join("\n");
      const answers = u.emu
        .callbackAnswers()
        .filter((a) => a.chat_id === u.id)
        .slice(-4)
        .map((a) => `${a.data} -> ${a.text ?? "(silent)"}`)
        .join("; ");
      throw new Error(
        `user ${u.id} could not finish an order in time; chat ends:\n${tail}\nlast callback answers: ${answers}`,
      );
    }
    const last = u
      .botMessages()
      .filter((m) => !isNoise(m))
      .at(-1);
    const text = last?.text ?? "";
    const receipt = RECEIPT.exec(text);
    if (receipt?.[1] && !known.has(receipt[1])) {
      known.add(receipt[1]);
      return { reference: receipt[1], actions, retries };
    }
    if (opts.thinkMs) await sleep(opts.thinkMs());
    const before = u.lastId();
    let action: string;
    try {
      if (/Please check your order/.test(text) && last) {
        if (u.hasButton("✅ Confirm", last)) {
          action = "confirm";
          u.emu.clickButton(u.id, "✅ Confirm", { messageId: last.id });
        } else {
          action = "ask again";
          u.emu.sendText(u.id, "ok");
        }
      } else if (/How much\?/.test(text)) {
        action = "amount";
        u.emu.sendText(u.id, amount);
      } else if (/Operator for/.test(text) && last && u.hasButton(/detected/, last)) {
        action = "operator";
        const label = (last.inlineKeyboard ?? []).flat().find((b) => /detected/.test(b.text));
        u.emu.clickButton(u.id, label?.text ?? "", { messageId: last.id });
      } else if (/Which mobile number/.test(text)) {
        action = "number";
        u.emu.sendText(u.id, number);
      } else if (
        /What would you like to pay/.test(text) &&
        last &&
        u.hasButton("📱 Mobile top-up", last)
      ) {
        action = "menu";
        u.emu.clickButton(u.id, "📱 Mobile top-up", { messageId: last.id });
      } else {
        action = "start";
        u.emu.sendText(u.id, "/recharge");
      }
    } catch {
      // The button vanished between looking and tapping: look again.
      await sleep(200);
      continue;
    }
    actions++;
    if (action === lastAction) retries++;
    lastAction = action;
    try {
      await u.emu.waitForBotMessage(u.id, (m) => !isNoise(m), {
        afterId: before,
        timeoutMs: quietMs,
      });
    } catch {
      // Nothing came back (the bot was down, or the update died with it): look again.
    }
  }
}
