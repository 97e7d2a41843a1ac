// The back office in a real browser (Chromium, headless, playwright-core): an admin opens the
// one-time link from the chat, confirms, finds an order by its reference, sees its timeline and
// the books' transfers, and logs out; the link used once does not log in again. Then finds an
// order by its number on the orders page and opens it from the results.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, type Browser, launchChromium } from "../support/browser.ts";
import { ADMIN, type DashboardHarness, startDashboard } from "../support/dashboard.ts";

const WAIT_MS = 20_000;

describe("the back office in Chromium", () => {
  let h: DashboardHarness;
  let browser: Browser | undefined;

  beforeAll(async () => {
    h = await startDashboard();
    browser = await launchChromium({ name: "dashboard", allowedOrigin: h.url });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it("logs in by the link, opens an order, logs out", async () => {
    const { page, context, pageErrors } = browser!;
    const order = await h.successfulOrder(7101);
    const link = (await h.access.issueLink(ADMIN))!;

    await page.goto(link.url);
    await page
      .locator("h1", { hasText: "Log in to the back office" })
      .waitFor({ timeout: WAIT_MS });
    await page.locator("#confirm").click();
    await page.locator("h1", { hasText: "Back office" }).waitFor({ timeout: WAIT_MS });
    expect(page.url()).toBe(`${h.url}/dashboard`);
    const [cookie] = await context.cookies(h.url);
    expect(cookie).toMatchObject({
      name: "__Host-dashboard",
      httpOnly: true,
      secure: true,
      sameSite: "Strict",
      path: "/",
    });

    await page.locator('input[name="ref"]').fill(order.reference);
    await page.locator('button[type="submit"]', { hasText: "Open" }).click();
    await page.locator("h1", { hasText: `Order ${order.reference}` }).waitFor({ timeout: WAIT_MS });
    const body = await page.locator("main").innerText();
    expect(body).toContain("Timeline");
    expect(body).toContain("<b>operator said ok</b>");
    expect(body).toContain(`order:${order.reference}:float`);
    await page.screenshot({ path: join(ARTIFACTS, "dashboard-order.png"), fullPage: true });

    await page.locator("button", { hasText: "Log out" }).click();
    await page.locator("text=You are logged out.").waitFor({ timeout: WAIT_MS });
    expect(await context.cookies(h.url)).toEqual([]);
    await page.goto(`${h.url}/dashboard`);
    await page.locator("h1", { hasText: "Log in" }).waitFor({ timeout: WAIT_MS });
    expect(page.url()).toBe(`${h.url}/dashboard/login`);

    // The link was spent by the first confirm.
    await page.goto(link.url);
    await page.locator("h1", { hasText: "Link not valid" }).waitFor({ timeout: WAIT_MS });
    expect(pageErrors).toEqual([]);
  });

  it("finds an order by its number on the orders page and opens it from the results", async () => {
    const { page, pageErrors } = browser!;
    const order = await h.successfulOrder(7102);
    const link = (await h.access.issueLink(ADMIN))!;
    await page.goto(link.url);
    await page.locator("#confirm").click();
    await page.locator("h1", { hasText: "Back office" }).waitFor({ timeout: WAIT_MS });

    await page.locator("nav a", { hasText: "Orders" }).click();
    await page.locator("h1", { hasText: "Orders" }).waitFor({ timeout: WAIT_MS });
    await page.locator('input[name="number"]').fill(order.connectionNo);
    await page.locator('input[name="customer"]').fill("7102");
    await page.locator('select[name="status"]').selectOption("success");
    await page.locator('button[type="submit"]', { hasText: "Search" }).click();
    await page.locator("text=Orders found: 1").waitFor({ timeout: WAIT_MS });
    await page.screenshot({ path: join(ARTIFACTS, "dashboard-search.png"), fullPage: true });
    await page.locator(`a[href="/dashboard/orders?ref=${order.reference}"]`).click();
    await page.locator("h1", { hasText: `Order ${order.reference}` }).waitFor({ timeout: WAIT_MS });
    expect(await page.locator("main").innerText()).toContain("Timeline");
    expect(pageErrors).toEqual([]);
  });
});
