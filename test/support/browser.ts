import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";

/** Debian's Chromium (never a downloaded browser); .ci/run installs it when missing. */
export const CHROMIUM = "/usr/bin/chromium";
/** Screenshots of the browser tests (git-ignored). */
export const ARTIFACTS = join(import.meta.dirname, "..", "artifacts");

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Errors the page threw, and Content-Security-Policy complaints on its console. */
  pageErrors: string[];
  close(): Promise<void>;
}

/**
 * A headless Chromium with a profile of its own, whose pages reach nothing but `allowedOrigin`
 * (no CDN, no web fonts): every other request is aborted.
 */
export async function launchChromium(opts: {
  name: string;
  allowedOrigin: string;
  viewport?: { width: number; height: number };
}): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM}: install it with "apt-get install -y chromium" (.ci/run does)`,
    );
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), `${opts.name}-chromium-`));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    viewport: opts.viewport ?? { width: 1280, height: 800 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors: string[] = [];
  page.on("pageerror", (err) => pageErrors.push(err.message));
  // A secure-headers policy that blocked a script, a style or the event stream would show here.
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) pageErrors.push(m.text());
  });
  // Every page of the context (a payment page opened in a new tab too) stays on this server.
  await context.route("**/*", (route) =>
    route.request().url().startsWith(opts.allowedOrigin) ? route.continue() : route.abort(),
  );
  return {
    context,
    page,
    pageErrors,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Chooses a person in the playground and waits until the chat column shows their chat: the
 * column is reloaded after the click, and a message counted before that would be the last chat's.
 */
export async function openChat(page: Page, name: string, userId: number, waitMs: number) {
  await page.locator(".person", { hasText: name }).click();
  await page.locator(".person.active", { hasText: name }).waitFor({ timeout: waitMs });
  await page.locator(`#messages[data-chat="${userId}"]`).waitFor({ timeout: waitMs });
}

/** The playground's chat column as a user works it: read the bubbles, type, tap a button. */
export function chatPage(page: Page, waitMs: number) {
  const messages = () => page.locator("#messages .row:not(.typing-row)");
  const bubble = (text: string | RegExp) => messages().filter({ hasText: text }).last();
  return {
    messages,
    bubble,
    /** Types a message and waits for it in the chat. */
    async type(text: string) {
      await page.locator("#input").fill(text);
      await page.locator("#input").press("Enter");
      await bubble(text).waitFor({ timeout: waitMs });
    },
    /** Taps the newest button labelled `label` and waits for a bubble with `after`. */
    async click(label: string, after: string | RegExp) {
      await page.locator(".kb-button", { hasText: label }).last().click();
      await bubble(after).waitFor({ timeout: waitMs });
    },
  };
}
