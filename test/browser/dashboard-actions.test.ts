// A cash-in reversed in a real browser (Chromium, headless, playwright-core): an admin logs in by
// the one-time link, opens the cash-ins from the menu, follows "Reverse…", gives a reason, confirms,
// and sees both balances change; the books (real Redis) moved by one new transfer and still balance.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, type Browser, launchChromium } from "../support/browser.ts";
import {
  type ActionsHarness,
  ADMIN,
  AGENT,
  balancesOf,
  expectBooksBalanced,
  startActions,
} from "../support/dashboard-actions.ts";

const WAIT_MS = 20_000;

describe("a cash-in reversal in Chromium", () => {
  let h: ActionsHarness;
  let browser: Browser | undefined;

  beforeAll(async () => {
    h = await startActions();
    browser = await launchChromium({ name: "dashboard-actions", allowedOrigin: h.url });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it("reverses a cash-in with a reason and both statements change", async () => {
    const { page, pageErrors } = browser!;
    const id = await h.cashIn(AGENT, 5301, 30_000);
    await page.goto(await h.linkFor(ADMIN));
    await page.locator("#confirm").click();
    await page.locator("h1", { hasText: "Back office" }).waitFor({ timeout: WAIT_MS });

    await page.locator("nav a", { hasText: "Cash-ins" }).click();
    await page.locator("h1", { hasText: "Cash-ins and credits" }).waitFor({ timeout: WAIT_MS });
    await page.locator(`a[href="/dashboard/cash-ins/reverse?id=${id}"]`).click();
    await page.locator("h1", { hasText: `Reverse ${id}` }).waitFor({ timeout: WAIT_MS });
    expect(await page.locator("main").innerText()).toContain("customer 5301");
    await page.locator('textarea[name="reason"]').fill("paid with a torn note");
    await page.locator("button", { hasText: "Reverse Rs 300.00" }).click();
    await page.locator("text=Reversed.").waitFor({ timeout: WAIT_MS });
    const body = await page.locator("main").innerText();
    expect(body).toContain(`rev-${id}`);
    expect(body).toContain("Rs 300.00 → Rs 0.00");
    await page.screenshot({ path: join(ARTIFACTS, "dashboard-reversal.png"), fullPage: true });

    expect(await balancesOf(h.ledger, 5301, AGENT)).toEqual({ customer: 0, agent: 30_000 });
    await expectBooksBalanced(h.ledger);
    expect(pageErrors).toEqual([]);
  });
});
