// Issue 16 in a real browser (Debian's Chromium, headless, driven by playwright-core): one mobile
// top-up in each language with a /help in the middle, a Back and an Edit at the confirmation, by
// clicking and typing only. A screenshot per language goes to test/artifacts/;
// `PLAYGROUND_DOCS_SCREENSHOT=1` also refreshes the README's picture (docs/forgive.png).
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, type Browser, launchChromium, openChat } from "../support/browser.ts";
import { startTestSystem, type TestSystem } from "../support/system.ts";

const WAIT_MS = 20_000;

const LANGUAGES = [
  { locale: "en", button: "English", user: "Asha", id: 1001, number: "9841230101" },
  { locale: "ne", button: "नेपाली", user: "Bikash", id: 1002, number: "9841230102" },
  { locale: "hi", button: "हिन्दी", user: "Chandra", id: 2001, number: "9841230103" },
] as const;

describe("a forgiving flow in the playground, in Chromium", () => {
  let ts: TestSystem;
  let page: Page;
  let browser: Browser | undefined;
  let pageErrors: string[] = [];

  beforeAll(async () => {
    ts = await startTestSystem({ env: { AGENT_IDS: "2001", ADMIN_IDS: "3001" } });
    browser = await launchChromium({
      name: "forgive",
      allowedOrigin: ts.system.url,
      viewport: { width: 1280, height: 900 },
    });
    ({ page, pageErrors } = browser);
    await page.goto(`${ts.system.url}/`);
    await page.locator(".person").first().waitFor({ timeout: WAIT_MS });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await ts?.cleanup();
  });

  const messages = () => page.locator("#messages .row:not(.typing-row)");
  const bubble = (text: string | RegExp) => messages().filter({ hasText: text }).last();

  /** Waits for a bubble after the first `from` ones that contains `text`. */
  async function appears(from: number, text: string | RegExp) {
    await expect
      .poll(
        async () =>
          (await messages().allInnerTexts())
            .slice(from)
            .some((m) => (typeof text === "string" ? m.includes(text) : text.test(m))),
        { timeout: WAIT_MS },
      )
      .toBe(true);
  }

  async function type(text: string, after?: string | RegExp) {
    const from = await messages().count();
    await page.locator("#input").fill(text);
    await page.locator("#input").press("Enter");
    await appears(from, after ?? text);
  }

  async function click(label: string, after: string | RegExp) {
    const from = await messages().count();
    await page.locator(".kb-button", { hasText: label }).last().click();
    await appears(from, after);
  }

  for (const lang of LANGUAGES) {
    it(`goes back, answers /help and edits the amount at the confirmation (${lang.locale})`, async () => {
      const t = (key: string, params?: Record<string, string | number>) =>
        ts.system.deps.i18n.t(lang.locale, key, params);
      await openChat(page, lang.user, lang.id, WAIT_MS);
      // The prompt is in whatever language the chat had; the choice edits it in place.
      const prompts = LANGUAGES.map((l) => ts.system.deps.i18n.t(l.locale, "language-prompt"));
      await type("/language", new RegExp(prompts.join("|")));
      await page.locator(".kb-button", { hasText: lang.button }).last().click();
      await bubble(t("language-set")).waitFor({ timeout: WAIT_MS });

      const howMuch = t("mobile-ask-amount", { min: "", max: "" }).split(" ")[0]!;
      await type("/recharge", t("menu-prompt"));
      await click(t("menu-mobile"), t("mobile-ask-number"));
      // The number's series names the operator: the amount is asked next.
      await type(lang.number, howMuch);
      // /help in the middle: answered, and the question still works.
      await type("/help", t("help-text").split("\n")[0]!);
      // Back: the number question again.
      await click(t("common-back"), t("mobile-ask-number"));
      await type(lang.number, howMuch);
      await type("150", t("confirm-title"));
      // Edit the amount at the confirmation: asked once, then the confirmation is back.
      await click(t("flow-edit-amount"), howMuch);
      await type("200", t("confirm-title"));
      const confirm = bubble(t("confirm-title"));
      await confirm.waitFor({ timeout: WAIT_MS });
      await confirm.filter({ hasText: "200" }).waitFor({ timeout: WAIT_MS });
      expect(await confirm.locator(".kb-button").allTextContents()).toEqual([
        t("common-confirm"),
        t("flow-edit-number"),
        t("flow-edit-amount"),
        t("common-back"),
        t("common-cancel"),
      ]);
      // Only the newest confirmation has buttons.
      expect(
        await messages()
          .filter({ hasText: t("confirm-title") })
          .locator(".kb-button")
          .count(),
      ).toBe(5);
      await page.screenshot({ path: join(ARTIFACTS, `forgive-${lang.locale}.png`) });
      if (lang.locale === "en" && process.env.PLAYGROUND_DOCS_SCREENSHOT === "1") {
        await page.screenshot({
          path: join(import.meta.dirname, "..", "..", "docs", "forgive.png"),
        });
      }
      await click(t("common-confirm"), /🧾/);
      const [order] = await ts.system.orders.listByUser(lang.id, 1);
      expect(order).toMatchObject({ amountPaisa: 20_000, locale: lang.locale });
      expect(pageErrors).toEqual([]);
    });
  }
});
