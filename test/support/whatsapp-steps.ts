import { expect } from "vitest";
import type { StandInMessage, WhatsAppStandIn } from "../../dev/whatsapp/index.ts";
import { account } from "../../src/ledger/index.ts";
import { chargedPaisa } from "../../src/orders/model.ts";
import { chatIdOfWaId } from "../../src/whatsapp/chat-ids.ts";
import { refOf } from "./chat.ts";
import { ledgerFor, type TestSystem, type TestUser } from "./system.ts";
import { WhatsAppChatUser } from "./whatsapp-chat.ts";

/**
 * Steps shared by the WhatsApp e2e tests: a customer's phone on the test system's stand-in, money
 * in their account, the confirmation and its outcome, and what WhatsApp's limits say a message
 * may look like.
 */

export function standInOf(ts: TestSystem): WhatsAppStandIn {
  const standIn = ts.system.whatsapp;
  if (!standIn) throw new Error("the test system runs without the WhatsApp stand-in");
  return standIn;
}

/** A phone writing to the merchant's number; its person is the chat id unless someone owns it. */
export function waCustomer(ts: TestSystem, waId: string, name = "Sita"): WhatsAppChatUser {
  return new WhatsAppChatUser(standInOf(ts), waId, { name });
}

/** The person id a WhatsApp-born customer has: the chat id of the phone. */
export function waPerson(waId: string): number {
  const id = chatIdOfWaId(waId);
  if (id === null) throw new Error(`${waId} is not a WhatsApp number`);
  return id;
}

let credits = 0;
/** Credits a person's balance in the books, as an admin's credit would (paisa). */
export async function creditPerson(ts: TestSystem, personId: number, paisa: number) {
  const r = await ts.system.ledger.transfer({
    id: `wa-test-credit-${personId}-${++credits}`,
    debit: account.merchant.funding,
    credit: account.customer(personId),
    amountPaisa: paisa,
    kind: "credit",
  });
  if (!r.ok) throw new Error(`crediting ${personId} failed: ${r.refusal.code}`);
}

export async function availableOf(ts: TestSystem, personId: number): Promise<number> {
  return (await ts.system.ledger.balance(account.customer(personId))).availablePaisa;
}

/** Says "hi" and opens a category from the menu list; waits for its first question. */
export async function openCategory(u: WhatsAppChatUser, label: RegExp, question: RegExp) {
  const menu = await u.say("hi", /Choose what you want to pay/);
  expect(menu.kind).toBe("list");
  expectWithinLimits(menu);
  return u.tap(label, question);
}

/** Taps Confirm on the confirmation; the receipt (new message) and its order reference. */
export async function confirm(u: WhatsAppChatUser) {
  const receipt = await u.tap(/Confirm/, /Order \d+/);
  const ref = refOf(receipt.text);
  expect(ref).toMatch(/^\d+$/);
  return { receipt, ref };
}

/** The final push of order `ref`. */
export function pushOf(u: WhatsAppChatUser, ref: string, outcome: "succeeded" | "failed") {
  return u.waitFor((m) => m.text.includes(`Order ${ref} ${outcome}`), { timeoutMs: 15_000 });
}

export async function confirmUntil(u: WhatsAppChatUser, outcome: "succeeded" | "failed") {
  const { receipt, ref } = await confirm(u);
  return { receipt, ref, push: await pushOf(u, ref, outcome) };
}

/**
 * What WhatsApp allows (the stand-in refuses the rest, so a breach shows as a missing message;
 * checked here too so the test says which): titles ≤ 20 on reply buttons, ≤ 24 on list rows,
 * unique within the message, at most 3 buttons or 10 rows.
 */
export function expectWithinLimits(m: StandInMessage): void {
  const titles = m.buttons.map((b) => b.title);
  expect(new Set(titles).size, `titles unique: ${titles.join(" | ")}`).toBe(titles.length);
  if (m.kind === "button") {
    expect(titles.length).toBeLessThanOrEqual(3);
    for (const t of titles) expect(t.length, t).toBeLessThanOrEqual(20);
  }
  if (m.kind === "list") {
    expect(titles.length).toBeLessThanOrEqual(10);
    for (const t of titles) expect(t.length, t).toBeLessThanOrEqual(24);
  }
}

/** Every message the customer got so far is within the limits. */
export function expectChatWithinLimits(u: WhatsAppChatUser): void {
  for (const m of u.messages()) expectWithinLimits(m);
}

/**
 * What an order left behind: the success in our orders, one debit in the aggregator's ledger,
 * and the customer's balance down by the total (in Nepal rupees: an India order's converted one).
 */
export async function expectPaid(
  ts: TestSystem,
  ref: string,
  personId: number,
  before: number,
  paisa: number,
): Promise<void> {
  const order = await ts.system.orders.get(ref);
  expect(order).toMatchObject({ status: "success", userId: personId, amountPaisa: paisa });
  expect(ledgerFor(ts, ref)).toMatchObject([{ amountPaisa: paisa, status: "success" }]);
  const charged = order ? chargedPaisa(order) : 0;
  expect(charged).toBeGreaterThanOrEqual(paisa);
  expect(await availableOf(ts, personId)).toBe(before - charged);
}

/** A WhatsApp customer credited with `paisa`, and their balance before the test's order. */
export async function creditedCustomer(ts: TestSystem, waId: string, paisa: number) {
  const u = waCustomer(ts, waId);
  await creditPerson(ts, waPerson(waId), paisa);
  return { u, person: waPerson(waId), before: await availableOf(ts, waPerson(waId)) };
}

/** The one-time code in a link's message ("Your code to use this account from … : 123456"). */
export function linkCodeIn(text: string): string {
  const code = /: (\d{6})\n/.exec(text)?.[1];
  if (!code) throw new Error(`no link code in ${JSON.stringify(text)}`);
  return code;
}

/** Shares a contact in the Telegram chat and waits for the bot's answer matching `expect`. */
export async function shareContact(tg: TestUser, phone: string, expect: RegExp) {
  const { message_id } = tg.emu.sendContact(tg.id, { phoneNumber: `+${phone}` });
  return tg.emu.waitForBotMessage(tg.id, expect, { afterId: message_id, timeoutMs: 8000 });
}

/**
 * A Telegram user joined to the WhatsApp account of `phone` as a person does it: shares the
 * contact, reads the code in the WhatsApp chat, types it on Telegram.
 */
export async function linkTelegramTo(tg: TestUser, wa: WhatsAppChatUser, phone: string) {
  await shareContact(tg, phone, /sent a 6-digit code to that WhatsApp chat/);
  const sent = await wa.waitFor(/Your code to use this account from Telegram too/);
  await tg.say(`/link ${linkCodeIn(sent.text)}`, /Joined: this chat now uses the account/);
}

/**
 * A WhatsApp chat joined to the Telegram account that registered its number: asks for a code,
 * reads it in the Telegram chat, types it on WhatsApp.
 */
export async function linkWhatsAppTo(wa: WhatsAppChatUser, tg: TestUser) {
  const after = tg.lastId();
  await wa.say("link", /sent a 6-digit code to that Telegram chat/);
  const sent = await tg.emu.waitForBotMessage(
    tg.id,
    /Your code to use this account from WhatsApp/,
    {
      afterId: after,
      timeoutMs: 8000,
    },
  );
  await wa.say(`link ${linkCodeIn(sent.text)}`, /Joined: this chat now uses the account/);
}

/** The merchant funds agent `agentId`'s float with Rs 1,000 (ledger transfer `id`). */
export function fundAgent(ts: TestSystem, agentId: number, id: string) {
  return ts.system.ledger.transfer({
    id,
    debit: account.merchant.funding,
    credit: account.agent(agentId),
    amountPaisa: 100_000,
    kind: "credit",
  });
}

/**
 * Agent `agentId`, its float funded first (transfer `floatId`), cashes in Rs 300 to the customer
 * of `phone` through its chat and confirms; the receipt's id (`cashin-…`).
 */
export async function agentCashIn(ts: TestSystem, agentId: number, floatId: string, phone: string) {
  await fundAgent(ts, agentId, floatId);
  const agent = ts.user(agentId);
  await agent.say("/cashin", /customer's phone number/);
  await agent.say(phone.slice(3), /How much cash/);
  const confirmed = await agent.say("300", /Add .* to the balance of/);
  const id = /Receipt: (cashin-[0-9a-f]+)/.exec(confirmed.text)?.[1] ?? "";
  await agent.tap("✅ Confirm", /Cash-in done/);
  return id;
}
