// A refill of the aggregator wallet in a real browser (Chromium, headless, playwright-core): one
// admin proposes it on the books page (direction, amount, reason, UTR), another logs in and
// approves it; the books (real Redis) moved by one transfer, still balance, and the page says so.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account } from "../../src/ledger/index.ts";
import { ARTIFACTS, type Browser, launchChromium } from "../support/browser.ts";
import {
  type ActionsHarness,
  ADMIN,
  expectBooksBalanced,
  startActions,
} from "../support/dashboard-actions.ts";

const WAIT_MS = 20_000;
const ADMIN_B = 3002;

describe("a float refill in Chromium", () => {
  let h: ActionsHarness;
  let browser: Browser | undefined;

  beforeAll(async () => {
    h = await startActions();
    h.admins.add(ADMIN_B);
    browser = await launchChromium({ name: "dashboard-float", allowedOrigin: h.url });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  const login = async (userId: number) => {
    const { page } = browser!;
    await page.goto(await h.linkFor(userId));
    await page.locator("#confirm").click();
    await page.locator("h1", { hasText: "Back office" }).waitFor({ timeout: WAIT_MS });
    await page.locator("nav a", { hasText: "Books" }).first().click();
    await page.locator("h2", { hasText: "Float movements" }).waitFor({ timeout: WAIT_MS });
  };

  it("proposed by one admin, approved by another: booked once", async () => {
    const { page, pageErrors } = browser!;
    await login(ADMIN);
    // Read after the books page: its report booked the opening float.
    const floatBefore = -(await h.ledger.balance(account.merchant.float)).postedPaisa;
    await page.locator('input[name="direction"][value="refill"]').check();
    await page.locator('input[name="amount"]').fill("7,500");
    await page.locator('input[name="reason"]').fill("bank deposit");
    await page.locator('input[name="reference"]').fill("UTR55501");
    await page.locator("button", { hasText: "Propose" }).click();
    await page.locator("text=Nothing moves until another admin approves it").waitFor({
      timeout: WAIT_MS,
    });

    await login(ADMIN_B);
    await page.locator("#float-moves").scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, "dashboard-float-books.png"), fullPage: true });
    await page.locator("button", { hasText: "Approve: book Rs 7500.00" }).click();
    await page.locator("text=Approved and booked.").waitFor({ timeout: WAIT_MS });
    const body = await page.locator("main").innerText();
    expect(body).toContain("Rs 7500.00");
    await page.screenshot({ path: join(ARTIFACTS, "dashboard-float-refill.png"), fullPage: true });

    const moves = (await h.ledger.journal()).entries.filter((e) => e.id.startsWith("float-move:"));
    expect(moves).toMatchObject([{ amountPaisa: 750_000, reference: "UTR55501" }]);
    expect(-(await h.ledger.balance(account.merchant.float)).postedPaisa).toBe(
      floatBefore + 750_000,
    );
    await expectBooksBalanced(h.ledger);
    expect(pageErrors).toEqual([]);
  });
});
