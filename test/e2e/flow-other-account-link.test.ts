import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import type { TranscriptEntry } from "../../dev/playground/emulator/index.ts";
import { type TestUser, useTestSystem } from "../support/system.ts";
import { WhatsAppChatUser } from "../support/whatsapp-chat.ts";
import { creditPerson, linkTelegramTo, standInOf, waPerson } from "../support/whatsapp-steps.ts";

/**
 * A Telegram chat whose acting account changes mid-flow (its user joined it to a WhatsApp
 * account, or left one with /unlink) ends the flow with words that say so: the same person did
 * it, not "another account". A Confirm of an order a turn placed already (its save lost) says
 * "placed already" first, and nothing is placed again (checkout.ts's `over`, next-update.ts).
 */

const ts = useTestSystem({ redis: true, env: { ACCESS_MODE: "prepaid" } });
const t = (key: string, args?: Record<string, string>) => ts.system.deps.i18n.t("en", key, args);

/** ioredis's command object, as far as the injection reads it. */
type Sent = { name: string; args: unknown[] };
const realSend = Redis.prototype.sendCommand;
afterEach(() => {
  Redis.prototype.sendCommand = realSend;
});

/** The next release script that deletes conversation key `key` has that write fail (once). */
function failNextConversationWrite(key: string): void {
  let armed = true;
  Redis.prototype.sendCommand = function (this: Redis, cmd: Sent) {
    if (armed && (cmd.name === "evalsha" || cmd.name === "eval")) {
      const i = cmd.args.findIndex((a, j) => j > 0 && a === key && cmd.args[j - 1] === "del");
      if (i > 0) {
        cmd.args[i - 1] = "injectedfailure";
        armed = false;
      }
    }
    return realSend.call(this, cmd as never);
  } as typeof Redis.prototype.sendCommand;
}

const data = (m: TranscriptEntry, label: string) =>
  (m.inlineKeyboard ?? []).flat().find((b) => b.text === label)?.callback_data ?? "";

/** Asha's WhatsApp account with Rs 500, joined from Telegram user `id`; at a confirmation. */
async function joinedAtConfirmation(id: number, phone: string, number: string) {
  const asha = new WhatsAppChatUser(standInOf(ts), phone, { name: "Asha", userId: `NP.a-${id}` });
  await asha.say("hi", /Namaste Asha/);
  const person = waPerson(phone);
  await creditPerson(ts, person, 50_000);
  const tg = ts.user(id);
  await linkTelegramTo(tg, asha, phone);
  const confirm = await tg.mobileToConfirm(number, "150");
  return { tg, person, confirm };
}

/** Presses the (maybe removed) button `label` of message `m` and waits for the next bot message. */
async function pressOld(tg: TestUser, m: TranscriptEntry, label: string) {
  const last = tg.lastId();
  tg.emu.pressButton(tg.id, m.id, data(m, label), { force: true });
  const answer = /already placed|has ended here/;
  return tg.emu.waitForBotMessage(tg.id, answer, { afterId: last, timeoutMs: 10_000 });
}

describe("a Telegram chat that changes account mid-flow", () => {
  it("is told its own link or unlink ended the flow, not another account; nothing is placed", async () => {
    const { tg, person, confirm } = await joinedAtConfirmation(
      12_531,
      "9779800053001",
      "9841253101",
    );
    await tg.say("/unlink", /no longer uses the other account/);
    const told = await pressOld(tg, confirm, "✅ Confirm");
    expect(told.text).toBe(t("flow-other-account-linked"));
    expect(told.text).not.toBe(t("flow-other-account"));
    expect(await ts.system.orders.listByUser(person, 5)).toHaveLength(0);
    expect(await ts.system.orders.listByUser(tg.id, 5)).toHaveLength(0);
  });

  it("a Confirm of an order placed already says so (not the guard's words) and places nothing again", async () => {
    const { tg, person, confirm } = await joinedAtConfirmation(
      12_532,
      "9779800053002",
      "9841253102",
    );
    // Every update so far handled and saved: a tap on the amount question is answered.
    const asked = tg.botMessages().findLast((m) => /How much/.test(m.text));
    const press = tg.emu.pressButton(tg.id, asked!.id, data(asked!, tg.buttons(asked)[0]!), {
      force: true,
    });
    await tg.emu.waitFor(() =>
      tg.emu.callbackAnswers().some((a) => a.callback_query_id === press.callback_query_id),
    );
    failNextConversationWrite(`${ts.prefix}conversation:${tg.id}`);
    const { ref } = await tg.confirm();
    await tg.waitFor((m) => m.id > confirm.id && m.text === t("common-error"));
    // The order's final push first, so the answer awaited below is the tap's.
    await tg.outcome(ref, "succeeded");
    await tg.say("/unlink", /no longer uses the other account/);
    const told = await pressOld(tg, confirm, "✅ Confirm");
    expect(told.text).toMatch(new RegExp(`already placed: reference ${ref}`));
    const orders = await ts.system.orders.listByUser(person, 5);
    expect(orders.map((o) => o.reference)).toEqual([ref]);
    expect(await ts.system.orders.listByUser(tg.id, 5)).toHaveLength(0);
  });
});
