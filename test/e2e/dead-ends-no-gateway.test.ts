import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RunningEmulator,
  startBotApiEmulatorServer,
} from "../../dev/playground/emulator/index.ts";
import { loadConfig } from "../../src/config/index.ts";
import { account } from "../../src/ledger/index.ts";
import { createLogger } from "../../src/logger.ts";
import { startSystem } from "../../src/system/index.ts";
import { ChatUser } from "../support/chat.ts";
import { type SystemView, viewOf } from "../support/system-view.ts";

/**
 * Issue 30, no dead ends without a payment gateway (no Khalti configured: the embedded sandbox
 * tried from a real chat, BOT_TOKEN without PROVIDER_URL). A customer with nothing to spend is
 * told who can add money; a shortfall keeps the answers while an agent cashes money in, and
 * "Check again" brings the confirmation back. An agent with float but no balance of their own is
 * never told "an agent can credit it".
 */
const BOT_TOKEN = "123456:dead-ends-token";
const AGENT = 3401;
const CUSTOMER = 3402;

let telegram: RunningEmulator;
let system: SystemView;
beforeAll(async () => {
  telegram = await startBotApiEmulatorServer({ token: BOT_TOKEN });
  const config = loadConfig({
    PORT: "0",
    METRICS_PORT: "0",
    LOG_LEVEL: "silent",
    ACCESS_MODE: "prepaid",
    AGENT_IDS: String(AGENT),
    BOT_TOKEN,
    TELEGRAM_API_ROOT: telegram.apiRoot,
  });
  const logger = createLogger({
    level: "silent",
    destination: new Writable({ write: (_c, _e, cb) => cb() }),
    secrets: [],
  });
  system = viewOf(await startSystem({ config, logger }));
}, 30_000);
afterAll(async () => {
  await system?.stop();
  await telegram?.close();
});

let credits = 0;
async function credit(userId: number, paisa: number, to = account.customer(userId)) {
  const r = await system.ledger.transfer({
    id: `dead-ends-${userId}-${++credits}`,
    debit: account.merchant.funding,
    credit: to,
    amountPaisa: paisa,
    kind: "credit",
  });
  expect(r.ok).toBe(true);
}

function user(id: number): ChatUser {
  return new ChatUser(telegram.emulator, id, { first_name: `U${id}` }, { timeoutMs: 8000 });
}

async function register(u: ChatUser) {
  const { message_id } = u.emu.sendContact(u.id, {
    phoneNumber: `+97798${String(u.id).padStart(8, "0")}`,
  });
  await u.emu.waitForBotMessage(u.id, /Registered with/, { afterId: message_id, timeoutMs: 8000 });
}

describe("a short balance without a gateway", () => {
  it("nothing to spend: an agent can add it for cash, said before the first question", async () => {
    const u = user(CUSTOMER);
    await register(u);
    await u.say("/recharge", /What would you like to pay/);
    const told = await u.tap("📱 Mobile top-up", /Your balance is Rs 0/);
    expect(told.text).toContain("An agent (a shop) can add money to your balance for cash");
    expect(u.buttons(told)).toEqual([]);
  });

  it("short at the confirmation: answers kept while an agent cashes in, then Check again", async () => {
    const u = user(CUSTOMER);
    await credit(CUSTOMER, 3_000);
    const short = await u.mobileToConfirm("9841233402", "100", /short/);
    expect(short.text).toContain("Rs 70 short");
    expect(short.text).toContain("An agent (a shop) can add money");
    expect(short.text).toContain("Your answers are kept");
    expect(u.buttons(short)).toEqual(["🔄 Check my balance again", "‹ Back", "✖ Cancel"]);
    await credit(CUSTOMER, 7_000);
    const confirm = await u.tap("🔄 Check my balance again", /Please check your order/);
    expect(confirm.text).toContain("9841233402");
    expect(confirm.text).toContain("Balance after: Rs 0");
    await u.confirmUntil("succeeded");
    expect((await system.ledger.balance(account.customer(CUSTOMER))).availablePaisa).toBe(0);
  });

  it("an agent with float but no balance of their own is told to ask the merchant, not an agent", async () => {
    const agent = user(AGENT);
    await register(agent);
    await credit(AGENT, 50_000, account.agent(AGENT));
    await agent.say("/recharge", /What would you like to pay/);
    const told = await agent.tap("📱 Mobile top-up", /Your balance is Rs 0/);
    expect(told.text).toContain("not from your agent float");
    expect(told.text).not.toMatch(/an agent can/i);
    expect(told.text).not.toContain("An agent (a shop)");
  });
});
