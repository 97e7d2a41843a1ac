// Adding money in a real browser (Debian's Chromium, headless, playwright-core): a playground
// customer with nothing on their balance adds Rs 500 through the Khalti stand-in's page, then
// recharges with it. The balance, the journal and the pushes must agree.
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { ARTIFACTS, type Browser, chatPage, launchChromium } from "../support/browser.ts";
import { expectBooksBalanced } from "../support/ledger.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";

const ASHA = 1001;
const WAIT_MS = 20_000;

describe("adding money with Khalti in Chromium", () => {
  let ts: TestSystem;
  let context: BrowserContext;
  let page: Page;
  let browser: Browser | undefined;
  let pageErrors: string[] = [];

  beforeAll(async () => {
    ts = await startTestSystem({ redis: true, env: { ACCESS_MODE: "prepaid" } });
    browser = await launchChromium({
      name: "topup",
      allowedOrigin: ts.system.url,
      viewport: { width: 1280, height: 800 },
    });
    ({ page, pageErrors, context } = browser);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await ts?.cleanup();
  });

  // Read when called: the page exists once beforeAll has run.
  const chat = () => chatPage(page, WAIT_MS);
  const bubble = (text: string | RegExp) => chat().bubble(text);
  const type = (text: string) => chat().type(text);
  const click = (label: string, after: string | RegExp) => chat().click(label, after);

  it("adds Rs 500 through the payment page, then recharges from the balance", async () => {
    // The playground gives its demo customers a demo credit; an admin takes Asha's back (a
    // reversal, as /reverse books it), so she starts from a zero balance as a new customer would.
    const taken = await ts.system.deps.accounts!.reverse({
      originalId: `demo-credit-${ASHA}`,
      adminUserId: 3001,
      reason: "start the top-up test from zero",
    });
    expect(taken.ok).toBe(true);
    expect((await ts.system.ledger.balance(account.customer(ASHA))).availablePaisa).toBe(0);
    await page.goto(`${ts.system.url}/`);
    await page.locator(".person.active", { hasText: "Asha" }).waitFor({ timeout: WAIT_MS });

    await type("/addmoney");
    await bubble("How much do you want to add").waitFor({ timeout: WAIT_MS });
    await click("Rs 500", 'tap "Pay with Khalti"');

    // The URL button opens Khalti's page in a new tab, as Telegram opens a browser.
    const [khalti] = await Promise.all([
      context.waitForEvent("page"),
      page.locator("a.kb-button", { hasText: "Pay with Khalti" }).last().click(),
    ]);
    await khalti.locator("#amount", { hasText: "Rs 500.00" }).waitFor({ timeout: WAIT_MS });
    await khalti.screenshot({ path: join(ARTIFACTS, "khalti-standin.png") });
    await khalti.locator("#pay").click();
    await khalti.locator("h1", { hasText: "Payment received" }).waitFor({ timeout: WAIT_MS });
    expect(khalti.url()).toContain("/pay/khalti/return?pidx=");
    expect(await khalti.locator("body").innerText()).toContain("You can return to the chat");
    await khalti.close();

    await bubble("Rs 500 added to your balance. Balance: Rs 500").waitFor({ timeout: WAIT_MS });

    await type("/recharge");
    await click("📱 Mobile top-up", "Which mobile number");
    await type("9841234567");
    await bubble("9841234567 · NTC Prepaid").waitFor({ timeout: WAIT_MS });
    await type("150");
    const confirm = bubble("Please check your order");
    await confirm.waitFor({ timeout: WAIT_MS });
    expect(await confirm.innerText()).toContain("Balance after: Rs 350");
    await click("✅ Confirm", /Order \d+/);
    await bubble(/Order \d+ succeeded/).waitFor({ timeout: WAIT_MS });
    await page.screenshot({ path: join(ARTIFACTS, "playground-topup.png") });

    // The books agree with what the chat said.
    const ledger = ts.system.ledger;
    const customer = account.customer(ASHA);
    await expect
      .poll(async () => (await ledger.balance(customer)).availablePaisa, { timeout: WAIT_MS })
      .toBe(35_000);
    const mine = (await ledger.journal()).entries.filter(
      (e) => e.debit === customer || e.credit === customer,
    );
    expect(mine.map((e) => [e.kind, e.amountPaisa])).toEqual([
      ["demo_credit", 500_000],
      ["reversal", 500_000],
      ["topup", 50_000],
      ["hold", 15_000],
      ["post", 15_000],
    ]);
    expect(mine[2]?.debit).toBe(account.merchant.gateway("khalti"));
    await expectBooksBalanced(ledger);
    const pushes = ts.user(ASHA).botTexts();
    expect(pushes.filter((t) => t.includes("Rs 500 added to your balance"))).toHaveLength(1);
    expect(pushes.some((t) => /Order \d+ succeeded/.test(t))).toBe(true);
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
