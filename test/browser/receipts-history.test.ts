// A receipt and /history in each language, in the playground in a real browser (issue 30): one
// recharge per language by clicking and typing, its success push and the history pictured.
// Screenshots go to test/artifacts/; `PLAYGROUND_DOCS_SCREENSHOT=1 npx vitest run test/browser`
// refreshes docs/receipt-<locale>.png and docs/history-<locale>.png.
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, type Browser, chatPage, launchChromium, openChat } from "../support/browser.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";

const WAIT_MS = 20_000;
const DOCS = join(import.meta.dirname, "..", "..", "docs");
const LOCALES = ["en", "ne", "hi"] as const;

describe("receipts and /history in three languages, in Chromium", () => {
  let ts: TestSystem;
  let browser: Browser | undefined;
  let page: Page;
  let pageErrors: string[] = [];

  beforeAll(async () => {
    // Prepaid, as `npm start` runs: the demo customers start with a demo credit.
    ts = await startTestSystem({ env: { ACCESS_MODE: "prepaid" } });
    browser = await launchChromium({ name: "receipts-history", allowedOrigin: ts.system.url });
    ({ page, pageErrors } = browser);
    await page.setViewportSize({ width: 1000, height: 900 });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await ts?.cleanup();
  });

  const chat = () => chatPage(page, WAIT_MS);
  const bubble = (text: string | RegExp) => chat().bubble(text);
  const wait = (l: Locator) => l.waitFor({ timeout: WAIT_MS });
  /** A text of the product's own, in `locale`: what the page should show. */
  const t = (locale: string, key: string, args?: Record<string, string | number>) =>
    ts.system.deps.i18n.t(locale, key, args);
  /** A text's beginning, up to its first placeable (to find the bubble asking it). */
  const head = (locale: string, key: string) =>
    t(locale, key, {
      number: "§",
      min: "§",
      max: "§",
      ref: "§",
      operator: "§",
      amount: "§",
      total: "§",
    })
      .split("§")[0]!
      .trim();
  const textOf = async (l: Locator) => (await l.innerText()).replace(/\s+/g, " ");

  /** Both pictures: always to the artifacts, to docs/ when asked to refresh them. */
  async function picture(l: Locator, name: string) {
    await l.screenshot({ path: join(ARTIFACTS, name) });
    if (process.env.PLAYGROUND_DOCS_SCREENSHOT === "1")
      await l.screenshot({ path: join(DOCS, name) });
  }

  /** A mobile recharge by clicking and typing; resolves with its reference once it succeeded. */
  async function recharge(locale: string, number: string, amount: string): Promise<string> {
    await chat().type("/recharge");
    await wait(bubble(t(locale, "menu-prompt")));
    await chat().click(t(locale, "menu-mobile"), head(locale, "mobile-ask-number"));
    await chat().type(number);
    // The detected operator is offered with a ✓ (or chosen outright when the series says so).
    const amountAsked = bubble(head(locale, "mobile-ask-amount"));
    await wait(bubble(head(locale, "mobile-ask-operator")).or(amountAsked));
    if (!(await amountAsked.isVisible()))
      await chat().click("✓ NTC Prepaid", head(locale, "mobile-ask-amount"));
    await chat().type(amount);
    await wait(bubble(t(locale, "confirm-title")));
    await chat().click(t(locale, "common-confirm"), /🧾/);
    const success = bubble(head(locale, "notify-title-success"));
    await wait(success);
    const ref = /(\d{6,})/.exec(await textOf(success))?.[1] ?? "";
    expect(ref).not.toBe("");
    return ref;
  }

  it("pictures the success push and /history in English, Nepali and Hindi", async () => {
    await page.goto(`${ts.system.url}/`);
    await openChat(page, "Asha", 1001, WAIT_MS);
    const refs: string[] = [];
    for (const [i, locale] of LOCALES.entries()) {
      if (locale !== "en") {
        await chat().type("/language");
        await chat().click(t(locale, "language-name"), t(locale, "language-set"));
      }
      const ref = await recharge(locale, `984123450${i}`, String(100 + 50 * i));
      refs.push(ref);
      const total = t(locale, "receipt-line-total-paid", { total: "" }).trim();
      // The success push names the order and what was paid.
      const push = bubble(t(locale, "notify-title-success", { ref }));
      const pushed = await textOf(push);
      expect(pushed).toContain(`984123450${i}`);
      expect(pushed).toContain(total);
      await picture(push, `receipt-${locale}.png`);

      // /history: this order first, with its reference and total paid; the earlier ones below.
      await chat().type("/history");
      const list = bubble(t(locale, "history-title"));
      await wait(list);
      const shown = await textOf(list);
      const rupees = locale === "en" ? "Rs" : "रु";
      expect(shown).toContain(`${rupees} ${100 + 50 * i} · `);
      for (const r of refs) expect(shown).toContain(r);
      if (i > 0) expect(shown.indexOf(ref)).toBeLessThan(shown.indexOf(refs[0]!));
      expect(await list.locator(".kb-button").allTextContents()).toContain(
        t(locale, "history-search"),
      );
      await picture(list, `history-${locale}.png`);
    }
    expect(pageErrors).toEqual([]);
  });
});
