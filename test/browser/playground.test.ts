// The playground page in a real browser (Debian's Chromium, headless, driven by playwright-core):
// a newcomer's first minutes, by clicking and typing only. Screenshots go to test/artifacts/.
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, type Browser, chatPage, launchChromium, openChat } from "../support/browser.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";

const AGENT = 2001;
const ADMIN = 3001;
const WAIT_MS = 20_000;

describe("playground page in Chromium", () => {
  let ts: TestSystem;
  let browser: Browser | undefined;
  let page: Page;
  let pageErrors: string[] = [];
  /** The reference of the mobile recharge, as the page showed it. */
  let mobileRef = "";

  beforeAll(async () => {
    // Prepaid, as `npm start` runs: the demo customers start with a demo credit.
    ts = await startTestSystem({
      env: { ACCESS_MODE: "prepaid", AGENT_IDS: String(AGENT), ADMIN_IDS: String(ADMIN) },
    });
    browser = await launchChromium({ name: "playground", allowedOrigin: ts.system.url });
    ({ page, pageErrors } = browser);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await ts?.cleanup();
  });

  // Read when called: the page exists once beforeAll has run.
  const chat = () => chatPage(page, WAIT_MS);
  const messages = () => chat().messages();
  const bubble = (text: string | RegExp) => chat().bubble(text);
  const type = (text: string) => chat().type(text);
  const click = (label: string, after: string | RegExp) => chat().click(label, after);

  /** The text as the user reads it (laid out, with line breaks), whitespace collapsed. */
  async function textOf(locator: Locator) {
    return (await locator.innerText()).replace(/\s+/g, " ");
  }

  async function openAs(name: string, userId: number) {
    await openChat(page, name, userId, WAIT_MS);
    expect(page.url()).toContain(`#${userId}`);
  }

  it("completes a mobile recharge by clicking and typing, and shows the success push", async () => {
    await page.goto(`${ts.system.url}/`);
    await page.locator(".person").first().waitFor({ timeout: WAIT_MS });
    expect(await page.locator(".person .uname").allTextContents()).toEqual([
      "Asha",
      "Bikash",
      "Chandra",
      "Deepa",
      "Sita",
      "Hari",
    ]);
    expect(await page.locator(".person .role").allTextContents()).toEqual([
      "Customer · 1001",
      "Customer · 1002",
      "Agent · 2001",
      "Admin · 3001",
      "Customer (WhatsApp) +977 9841000001",
      "Customer (WhatsApp) +977 9841000002",
    ]);
    expect(await page.locator(".users-head").allTextContents()).toEqual(["Telegram", "WhatsApp"]);
    // The first user is chosen, with an empty chat and a START button.
    await page.locator(".person.active", { hasText: "Asha" }).waitFor();
    await page.locator("#start-button").waitFor();
    await page.locator(".balance", { hasText: "Rs 1,00,000" }).waitFor({ timeout: WAIT_MS });

    await type("/recharge");
    await bubble("What would you like to pay?").waitFor({ timeout: WAIT_MS });
    await click("📱 Mobile top-up", "Which mobile number");
    await type("9841234567");
    await bubble("9841234567 · NTC Prepaid").waitFor({ timeout: WAIT_MS });
    await type("150");
    const confirm = bubble("Please check your order");
    await confirm.waitFor({ timeout: WAIT_MS });
    expect(await textOf(confirm)).toContain("Amount: Rs 150");
    await click("✅ Confirm", /Order \d+/);

    const push = bubble(/Order \d+ succeeded/);
    await push.waitFor({ timeout: WAIT_MS });
    const ref = /Order (\d+) succeeded/.exec(await textOf(push))?.[1];
    expect(ref).toBeDefined();
    expect(await textOf(push)).toContain("NTC Prepaid · 9841234567 · Rs 150");
    // The user's own messages are on the right, the bot's on the left.
    expect(await page.locator(".row.user").count()).toBe(3);
    // The receipt was edited in place: one bubble, now final, marked edited.
    const receipt = messages()
      .filter({ hasText: `Order ${ref}` })
      .filter({ hasNotText: "succeeded" });
    await receipt.filter({ hasText: "successful" }).waitFor({ timeout: WAIT_MS });
    expect(await receipt.count()).toBe(1);
    expect(await receipt.locator(".edited").count()).toBe(1);
    expect(await receipt.locator("time").textContent()).toMatch(/\d{1,2}[:.]\d\d/);
    // The confirmation lost its buttons once confirmed.
    expect(await confirm.locator(".kb-button").count()).toBe(0);

    // The side panel: the webhook delivery of the success, and the wallet paid.
    const delivery = page
      .locator("#deliveries tr", { hasText: ref! })
      .filter({ hasText: "success" });
    await delivery.waitFor({ timeout: WAIT_MS });
    expect(await textOf(delivery)).toContain("200");
    await page.locator(".balance", { hasText: "Rs 99,850" }).waitFor({ timeout: WAIT_MS });
    // The merchant's books: Asha paid Rs 150 of her demo credit; the journal says so in words.
    await page
      .locator("#book-users tr", { hasText: "Asha" })
      .filter({ hasText: "Rs 4,850" })
      .waitFor({ timeout: WAIT_MS });
    expect(await textOf(page.locator("#book-users tr", { hasText: "Asha" }))).toContain(
      "+9779800001001",
    );
    await page.locator("#journal tr", { hasText: "demo credit" }).first().waitFor();
    await page.locator("#journal tr", { hasText: "post" }).first().waitFor({ timeout: WAIT_MS });

    await page.screenshot({ path: join(ARTIFACTS, "playground-mobile.png") });
    // `PLAYGROUND_DOCS_SCREENSHOT=1 npx vitest run test/browser` refreshes the README's picture.
    if (process.env.PLAYGROUND_DOCS_SCREENSHOT === "1") {
      await page.locator(".bubble.flash").first().waitFor({ state: "detached", timeout: WAIT_MS });
      await page.screenshot({
        path: join(import.meta.dirname, "..", "..", "docs", "playground.png"),
      });
    }
    mobileRef = ref!;
    expect(pageErrors).toEqual([]);
  });

  it("pays a water bill as the second customer", async () => {
    await openAs("Bikash", 1002);
    await page.locator("#start-button").waitFor({ timeout: WAIT_MS });
    // START sends /start: the welcome greets this user by name.
    await page.locator("#start-button").click();
    await bubble("Namaste Bikash").waitFor({ timeout: WAIT_MS });
    await click("🚰 Water bill", "which office");
    await click("KUKL Kamaladi", "Your customer id at KUKL Kamaladi");
    await type("1234-567");
    await bubble("For which month?").waitFor({ timeout: WAIT_MS });
    await click("Kartik", "Water bill of");
    const bill = bubble("Water bill of");
    expect(await textOf(bill)).toMatch(/Total due: Rs [\d,.]+/);
    const due = /Total due: (Rs [\d,.]+)/.exec(await textOf(bill))?.[1];
    await click(`💳 Pay the due ${due}`, "Please check your order");
    expect(await textOf(bubble("Please check your order"))).toContain("Office: KUKL Kamaladi");
    await click("✅ Confirm", /Order \d+/);
    const push = bubble(/Order \d+ succeeded/);
    await push.waitFor({ timeout: WAIT_MS });
    expect(await textOf(push)).toContain(`Khanepani (Water) · 1234-567 · ${due}`);
    const ref = /Order (\d+) succeeded/.exec(await textOf(push))?.[1];
    // The side panel catches up: the bill's webhook delivery, and the wallet paid for it.
    const delivery = page
      .locator("#deliveries tr", { hasText: ref! })
      .filter({ hasText: "success" });
    await delivery.waitFor({ timeout: WAIT_MS });
    await page.locator(".balance", { hasNotText: "Rs 99,850" }).waitFor({ timeout: WAIT_MS });
    await page.screenshot({ path: join(ARTIFACTS, "playground-water.png") });

    // The first customer's chat is untouched by all this.
    await openAs("Asha", 1001);
    await bubble(/Order \d+ succeeded/).waitFor({ timeout: WAIT_MS });
    expect(await messages().filter({ hasText: "Khanepani" }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it("lets an agent check a customer's order with /status", async () => {
    expect(mobileRef).not.toBe("");
    await openAs("Chandra", AGENT);
    await type(`/status ${mobileRef}`);
    const shown = bubble(new RegExp(`Order ${mobileRef}\\s+NTC Prepaid`));
    await shown.waitFor({ timeout: WAIT_MS });
    expect(await textOf(shown)).toContain("Customer (Telegram id): 1001");
    await page.screenshot({ path: join(ARTIFACTS, "playground-agent-status.png") });
  });

  it("shows the typing indicator, reply keyboards, button answers and unread counts", async () => {
    await openAs("Deepa", ADMIN);
    const api = ts.system.bot.api;
    await api.sendChatAction(ADMIN, "typing");
    await page.locator("#chat-status", { hasText: "typing…" }).waitFor({ timeout: WAIT_MS });
    await page.locator(".typing-row").waitFor({ timeout: WAIT_MS });
    // A message ends the typing indicator; its reply keyboard appears above the input.
    await api.sendMessage(ADMIN, "Share your number?", {
      reply_markup: { keyboard: [[{ text: "Yes" }, { text: "No" }]], resize_keyboard: true },
    });
    await bubble("Share your number?").waitFor({ timeout: WAIT_MS });
    await page.locator(".typing-row").waitFor({ state: "detached", timeout: WAIT_MS });
    expect(await page.locator("#chat-status").textContent()).toBe("bot");
    await page.locator("#reply-keyboard .reply-button", { hasText: "No" }).click();
    await messages().filter({ hasText: /^No/ }).waitFor({ timeout: WAIT_MS });
    await bubble("I did not understand").waitFor({ timeout: WAIT_MS });
    expect(await page.locator("#reply-keyboard").isVisible()).toBe(true);

    // A stale button: the bot answers the callback, and the page shows the answer as a toast.
    await type("/start");
    await bubble("Namaste Deepa").waitFor({ timeout: WAIT_MS });
    const stale = await api.sendMessage(ADMIN, "Old menu", {
      reply_markup: { inline_keyboard: [[{ text: "Old button", callback_data: "gone" }]] },
    });
    await page.locator(".kb-button", { hasText: "Old button" }).click();
    await page.locator("#toast", { hasText: "This button is no longer active." }).waitFor({
      timeout: WAIT_MS,
    });

    // An edit from the bot changes the bubble in place.
    await api.editMessageText(ADMIN, stale.message_id, "Old menu (closed)");
    const edited = bubble("Old menu (closed)");
    await edited.locator(".edited").waitFor({ timeout: WAIT_MS });
    expect(await messages().filter({ hasText: "Old menu" }).count()).toBe(1);

    // A message for another user shows as unread in the switcher.
    await api.sendMessage(1002, "Your bill is due soon.");
    await page
      .locator(".person", { hasText: "Bikash" })
      .locator(".badge", { hasText: "1" })
      .waitFor({
        timeout: WAIT_MS,
      });
    expect(pageErrors).toEqual([]);
  });

  it("plays a WhatsApp customer beside them: hi, the menu list, a row, a reply button", async () => {
    await page.locator(".person.wa", { hasText: "Sita" }).click();
    await page.locator(".person.wa.active", { hasText: "Sita" }).waitFor({ timeout: WAIT_MS });
    await page.locator('#messages.wa[data-chat="wa-9779841000001"]').waitFor({ timeout: WAIT_MS });
    expect(page.url()).toContain("#wa-9779841000001");
    // No Telegram furniture on WhatsApp: no command menu, no START.
    expect(await page.locator("#menu-button").isVisible()).toBe(false);
    expect(await page.locator("#start-button").isVisible()).toBe(false);
    expect(await textOf(page.locator("#acting-as"))).toContain(
      "Sita on WhatsApp (+977 9841000001)",
    );

    await type("hi");
    const menu = page.locator(".row.wa.bot", { hasText: "Namaste Sita" });
    await menu.waitFor({ timeout: WAIT_MS });
    // A list message: its body, and an opener that shows the rows (title and description).
    const opener = menu.locator("details.wa-list > summary");
    expect(await opener.textContent()).toBe("☰ Choose");
    const row = menu.locator(".wa-row", { hasText: "Mobile top-up" });
    expect(await row.isVisible()).toBe(false);
    await opener.click();
    await row.waitFor({ timeout: WAIT_MS });
    expect(await menu.locator(".wa-row").count()).toBeGreaterThanOrEqual(8);
    await row.click();
    // The tap is the customer's message, quoting the list; the list stays as sent (no edits).
    const tapped = page.locator(".row.wa.user", { hasText: "Mobile top-up" });
    await tapped.waitFor({ timeout: WAIT_MS });
    expect(await textOf(tapped.locator(".wa-quote"))).toContain("Namaste Sita");
    const question = page.locator(".row.wa.bot", { hasText: "Which mobile number" });
    await question.waitFor({ timeout: WAIT_MS });
    expect(await menu.locator(".wa-row").count()).toBeGreaterThanOrEqual(8);
    // Reply buttons sit under the message.
    expect(await question.locator(".wa-buttons .wa-button").allTextContents()).toContain(
      "✖ Cancel",
    );
    await type("9841234567");
    const amount = page.locator(".row.wa.bot", { hasText: "9841234567 · NTC Prepaid" });
    await amount.waitFor({ timeout: WAIT_MS });
    // The business messages' delivery ticks follow the statuses WhatsApp reported.
    await menu.locator(".ticks.read").waitFor({ timeout: WAIT_MS });
    await page.screenshot({ path: join(ARTIFACTS, "playground-whatsapp.png") });

    // The other WhatsApp customer's chat is their own, and empty.
    await page.locator(".person.wa", { hasText: "Hari" }).click();
    await page.locator('#messages[data-chat="wa-9779841000002"]').waitFor({ timeout: WAIT_MS });
    await page.locator("#messages .empty").waitFor({ timeout: WAIT_MS });
    expect(await page.locator("#messages .row").count()).toBe(0);
    // Back to Telegram: the Telegram chat and its furniture come back.
    await openAs("Asha", 1001);
    await bubble(/Order \d+ succeeded/).waitFor({ timeout: WAIT_MS });
    expect(await page.locator("#messages.wa").count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it("pictures both channels side by side (docs/playground-whatsapp.png)", async () => {
    await page.setViewportSize({ width: 1000, height: 760 });
    // The last test's toast gone, so it covers neither chat.
    await page.locator("#toast").waitFor({ state: "hidden", timeout: WAIT_MS });
    await openAs("Asha", 1001);
    await bubble(/Order \d+ succeeded/).waitFor({ timeout: WAIT_MS });
    const telegram = await page.locator("main.chat").screenshot();
    await page.locator(".person.wa", { hasText: "Sita" }).click();
    await page
      .locator(".row.wa.bot", { hasText: "9841234567 · NTC Prepaid" })
      .waitFor({ timeout: WAIT_MS });
    // The amount list opened, as a customer about to choose sees it.
    await page.locator("details.wa-list > summary").last().click();
    const whatsapp = await page.locator("main.chat").screenshot();
    const sidebar = await page.locator("aside.sidebar").screenshot();
    const picture = await browser!.context.newPage();
    const img = (png: Buffer) => `<img src="data:image/png;base64,${png.toString("base64")}">`;
    await picture.setContent(
      `<body style="margin:0;display:flex;gap:2px;background:#ccc;width:max-content">${img(sidebar)}${img(telegram)}${img(whatsapp)}</body>`,
    );
    const out = join(ARTIFACTS, "playground-both-channels.png");
    await picture.locator("body").screenshot({ path: out });
    // `PLAYGROUND_DOCS_SCREENSHOT=1 npx vitest run test/browser` refreshes the docs' picture.
    if (process.env.PLAYGROUND_DOCS_SCREENSHOT === "1") {
      await picture.locator("body").screenshot({
        path: join(import.meta.dirname, "..", "..", "docs", "playground-whatsapp.png"),
      });
    }
    await picture.close();
    expect(pageErrors).toEqual([]);
  });
});
