import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { encryptPayload, signature } from "../../src/webhook/codec.ts";
import { report, secretNeedles } from "../support/chaos/env.ts";
import { secretFigures } from "../support/chaos/logs.ts";
import { useChaosStack } from "../support/chaos/stack.ts";
import { ChatUser } from "../support/chat.ts";

/**
 * Who may see what. Customers see, repeat and are told about their own orders only (another
 * customer's reference or transaction id answers exactly like an unknown number, and never makes
 * the bot ask the aggregator); forged "repeat" callback data naming another customer's order
 * reaches nothing; agents and admins are recognised by their configured ids alone; a webhook
 * without the right signature changes no order and causes no status query, while the same event
 * correctly signed does (so the counter is known to work).
 */

const ALICE = 695_001;
const BOB = 695_002;
const AGENT = 695_900;
const ADMIN = 695_950;
const NOT_FOUND = /I found no order with that number/;

describe("security: customers, staff and unsigned webhooks", () => {
  const stack = useChaosStack("security", {
    extra: { AGENT_IDS: String(AGENT), ADMIN_IDS: String(ADMIN) },
  });
  const { secrets, logs } = stack;

  async function order(u: ChatUser, number: string): Promise<string> {
    await u.say("/recharge", /What would you like to pay/);
    await u.tap("📱 Mobile top-up", /Which mobile number/);
    await u.say(number, /How much\?/);
    await u.say("120", /Please check your order/);
    const receipt = await u.tap("✅ Confirm", /Order \d+/);
    const ref = /Order (\d+)/.exec(receipt.text)?.[1] ?? "";
    await u.waitFor(new RegExp(`Order ${ref} succeeded`), 15_000);
    return ref;
  }

  it("keeps customers to their own orders and staff to configured ids", async () => {
    const alice = new ChatUser(stack.emu.emulator, ALICE, { first_name: "Alice" });
    const bob = new ChatUser(stack.emu.emulator, BOB, { first_name: "Bob" });
    const agent = new ChatUser(stack.emu.emulator, AGENT, { first_name: "Agent" });
    const admin = new ChatUser(stack.emu.emulator, ADMIN, { first_name: "Admin" });
    const aliceRef = await order(alice, "9841695001");
    const bobRef = await order(bob, "9841695002");
    const aliceTx = (await stack.app.orders.get(aliceRef))?.transactionId ?? "";
    expect(aliceTx).not.toBe("");
    const queries = () => stack.provider.total(stack.provider.statusQueries);
    const q0 = queries();

    // Bob probes Alice's order every way a customer can.
    const probes = [
      await bob.say(`/status ${aliceRef}`, NOT_FOUND),
      await bob.say(`/status ${aliceTx}`, NOT_FOUND),
      await bob.say("/status 4242424242", NOT_FOUND),
    ];
    const history = await bob.say("/history", /Your last orders/);
    // Forged "repeat" data naming Alice's order, pressed on Bob's own history message.
    const forged = stack.emu.emulator.pressButton(BOB, history.id, `rep:${aliceRef}`, {
      force: true,
    });
    const forgedAnswer = await bob.emu.waitForBotMessage(BOB, NOT_FOUND, {
      afterId: history.id,
    });
    const unknownAsked = await bob.say("/status 1", NOT_FOUND);
    // Staff mode: a listed customer is told the merchant pays, and never sees the merchant's wallet.
    const bobBalance = await bob.say("/balance", /paid from the merchant's wallet/);
    const bobHelp = await bob.say("/help");
    const customerQueries = queries() - q0;

    // Staff: the agent sees Alice's order with who placed it, and may ask the aggregator.
    const agentView = await agent.say(`/status ${aliceRef}`, new RegExp(`Order ${aliceRef}`));
    const agentUnknown = await agent.say("/status 4242424242", NOT_FOUND);
    const agentQueries = queries() - q0 - customerQueries;
    // An agent sees their own agent balance, never the merchant's wallet.
    const agentBalance = await agent.say("/balance", /agent balance/i);
    const agentHelp = await agent.say("/help");
    const adminBalance = await admin.say("/balance", /Wallet balance/);
    // Staff rights come with the id, not with a name: someone called "Agent" is a customer.
    const impostor = new ChatUser(stack.emu.emulator, 695_901, {
      first_name: "Agent",
      username: "agent",
    });
    const impostorView = await impostor.say(`/status ${aliceRef}`, NOT_FOUND);
    const group = await alice.emu.sendGroupText(ALICE, -695_000, `/status ${aliceRef}`);
    const groupAnswer = await stack.emu.emulator.waitForBotMessage(
      -695_000,
      /only taken in a private chat/,
      {
        afterId: group.message_id,
      },
    );

    const bobTexts = bob
      .botMessages()
      .map((m) => m.text)
      .join("\n");
    const aliceOrders = await stack.app.orders.listByUser(ALICE, 10);
    const bobOrders = await stack.app.orders.listByUser(BOB, 10);
    report("security: who sees what", {
      "customer probes of another's order (reference, transaction id, forged repeat)": 3,
      "answered like an unknown number": [...probes, forgedAnswer].filter((m) =>
        NOT_FOUND.test(m.text),
      ).length,
      "another customer's reference anywhere in Bob's chat": bobTexts.includes(aliceRef) ? 1 : 0,
      "status queries caused by customers": customerQueries,
      "status queries caused by the agent's unknown number": agentQueries,
      "orders after the forged repeat (Alice / Bob)": `${aliceOrders.length} / ${bobOrders.length}`,
      "/balance for customer / agent / admin": `${bobBalance.text.slice(0, 24)} / ${agentBalance.text.slice(0, 24)} / ${adminBalance.text.slice(0, 15)}`,
    });
    for (const p of probes) expect(p.text).not.toContain(aliceRef);
    // /history names Bob's order by its number; its reference travels only in the Repeat button.
    expect(history.text).toContain("9841695002");
    expect(history.text).not.toContain("9841695001");
    expect(history.text).not.toContain(aliceRef);
    const repeatData = (history.inlineKeyboard ?? []).flat().map((b) => b.callback_data);
    expect(repeatData).toContain(`rep:${bobRef}`);
    expect(repeatData).not.toContain(`rep:${aliceRef}`);
    expect(forged.callback_query_id).toBeTruthy();
    expect(unknownAsked.text).toMatch(NOT_FOUND);
    expect(bobTexts).not.toContain(aliceRef);
    expect(customerQueries).toBe(0);
    expect(aliceOrders).toHaveLength(1);
    expect(bobOrders).toHaveLength(1);
    expect(bobHelp.text).not.toContain("As an agent");
    expect(agentView.text).toContain(`Customer (Telegram id): ${ALICE}`);
    expect(agentUnknown.text).toMatch(NOT_FOUND);
    expect(agentQueries).toBeGreaterThan(0);
    expect(agentHelp.text).toContain("As an agent");
    expect(agentHelp.text).not.toContain("As an admin");
    expect(adminBalance.text).toMatch(/Wallet balance: Rs/);
    expect(bobBalance.text).not.toMatch(/Wallet balance/);
    expect(agentBalance.text).not.toMatch(/Wallet balance/);
    expect(impostorView.text).not.toContain(aliceRef);
    expect(groupAnswer.text).not.toContain(aliceRef);
  });

  it("lets no unsigned webhook change an order or cause a status query", async () => {
    // An order left open: its webhooks are dropped and the reconciler is stopped.
    await stack.app.reconciler.stop();
    stack.provider.sandbox.setFaults(secrets.providerToken, { dropWebhooks: true });
    const user = 695_003;
    stack.emu.emulator.users.upsert(user, {});
    const placed = await stack.app.orders.place({
      idempotencyKey: `sec-${randomUUID()}`,
      userId: user,
      chatId: user,
      category: "mobile",
      region: "np",
      operatorId: 5,
      operatorTypeId: 1,
      operatorName: "NTC Prepaid",
      connectionNo: "9841695003",
      amountPaisa: 10_000,
      details: {},
    });
    const submitted = await stack.app.orders.submit(placed.reference);
    expect(submitted.status).toBe("queued");
    const claim = (status: string) =>
      JSON.stringify({
        data: encryptPayload(secrets.webhookSecret, {
          status,
          order_id: submitted.reference,
          transaction_id: Number(submitted.transactionId),
          amount: 100,
        }),
      });
    const post = (headers: Record<string, string>, body: string) =>
      fetch(`${stack.app.url}/webhooks/provider`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
      });
    const unsigned: Array<Record<string, string>> = [
      {},
      { "x-signature": "" },
      { "x-signature": signature(`${secrets.webhookSecret}x`) },
      { "x-signature": signature(secrets.webhookSecret).slice(1) },
      {
        "x-signature": signature(secrets.webhookSecret).replace(/^./, (c) =>
          c === "a" ? "b" : "a",
        ),
      },
      { "x-sig": signature(secrets.webhookSecret) },
    ];
    const q0 = stack.provider.total(stack.provider.statusQueries);
    const chatBefore = stack.emu.emulator.chat(user).length;
    const answers: number[] = [];
    for (const headers of unsigned) {
      for (const status of ["success", "failed", "pending"]) {
        answers.push((await post(headers, claim(status))).status);
      }
    }
    await stack.app.webhook.settled();
    const after = await stack.app.orders.get(submitted.reference);
    const unsignedQueries = stack.provider.total(stack.provider.statusQueries) - q0;
    const chatAfter = stack.emu.emulator.chat(user).length;

    // The same claim, signed: it is believed only after a status query, which now happens.
    const signed = await post(
      { "x-signature": signature(secrets.webhookSecret) },
      claim("success"),
    );
    await stack.app.webhook.settled();
    const signedQueries = stack.provider.total(stack.provider.statusQueries) - q0 - unsignedQueries;
    const scan = logs.scan(secretNeedles(secrets));
    report("security: unsigned webhooks", {
      "unsigned or wrongly signed claims": answers.length,
      "their answers": [...new Set(answers)].join(","),
      "order version before / after": `${submitted.version} / ${after?.version}`,
      "status queries caused by them": unsignedQueries,
      "chat messages caused by them": chatAfter - chatBefore,
      "status queries caused by the signed claim (control)": signedQueries,
      ...secretFigures(scan),
    });
    expect(answers.every((s) => s === 400)).toBe(true);
    expect(after?.version).toBe(submitted.version);
    expect(after?.status).toBe("queued");
    expect(unsignedQueries).toBe(0);
    expect(signed.status).toBe(200);
    expect(signedQueries).toBe(1);
    expect(chatAfter).toBe(chatBefore);
    expect(scan.leaks).toEqual([]);
  });
});
