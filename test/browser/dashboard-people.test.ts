// Blocking a customer in a real browser (Chromium, headless, playwright-core) against the whole
// product on Redis (issue 29): the admin logs in by the link the bot sent, finds the customer by
// Telegram id, blocks them with a reason on the confirm page, and the bot refuses the customer;
// unblocked, the customer orders again.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, type Browser, launchChromium } from "../support/browser.ts";
import { linkIn } from "../support/dashboard.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";

const WAIT_MS = 20_000;
const ADMIN = 3001;
const CUSTOMER = 1043;

describe("the back office's customers in Chromium", () => {
  let ts: TestSystem;
  let browser: Browser | undefined;

  beforeAll(async () => {
    ts = await startTestSystem({ redis: true });
    browser = await launchChromium({ name: "dashboard-people", allowedOrigin: ts.system.url });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await ts?.cleanup();
  });

  it("blocks a customer and sees the bot refuse them; unblocks and the bot serves them", async () => {
    const { page, pageErrors } = browser!;
    const customer = ts.user(CUSTOMER);
    await customer.say("/recharge", /What would you like to pay/);
    await customer.say("/cancel");

    const reply = await ts.user(ADMIN).say("/dashboard", /back-office login link/);
    await page.goto(linkIn(reply.text)!);
    await page.locator("#confirm").click();
    await page.locator("h1", { hasText: "Back office" }).waitFor({ timeout: WAIT_MS });

    await page.locator("nav a", { hasText: "Customers" }).click();
    await page.locator("h1", { hasText: "Customers and agents" }).waitFor({ timeout: WAIT_MS });
    await page.locator('select[name="by"]').selectOption("id");
    await page.locator('input[name="q"]').fill(String(CUSTOMER));
    await page.locator('button[type="submit"]', { hasText: "Open" }).click();
    await page.locator("h1", { hasText: `Customer ${CUSTOMER}` }).waitFor({ timeout: WAIT_MS });

    await page.getByRole("link", { name: "Block…", exact: true }).click();
    await page.locator("h1", { hasText: "Block customer" }).waitFor({ timeout: WAIT_MS });
    await page.locator('textarea[name="reason"]').fill("abusive messages");
    await page.getByRole("button", { name: "Block", exact: true }).click();
    await page.locator("h1", { hasText: `Customer ${CUSTOMER}` }).waitFor({ timeout: WAIT_MS });
    expect(await page.locator("main").innerText()).toContain("abusive messages");
    await page.screenshot({ path: join(ARTIFACTS, "dashboard-customer.png"), fullPage: true });

    await customer.say("/recharge", /Your account is blocked by the shop/);

    await page.getByRole("link", { name: "Unblock…", exact: true }).click();
    await page.locator("h1", { hasText: "Unblock customer" }).waitFor({ timeout: WAIT_MS });
    await page.locator('textarea[name="reason"]').fill("apologised");
    await page.getByRole("button", { name: "Unblock", exact: true }).click();
    await page.getByRole("link", { name: "Block…", exact: true }).waitFor({ timeout: WAIT_MS });

    await customer.say("/recharge", /What would you like to pay/);

    await page.locator("nav a", { hasText: "Audit log" }).click();
    await page.locator("h1", { hasText: "Audit log" }).waitFor({ timeout: WAIT_MS });
    const audit = await page.locator("main").innerText();
    expect(audit).toContain(`customer ${CUSTOMER}: abusive messages`);
    expect(audit).toContain(`customer ${CUSTOMER}: apologised`);
    expect(pageErrors).toEqual([]);
  });
});
