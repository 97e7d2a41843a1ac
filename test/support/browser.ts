import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";

/** Debian's Chromium, preferred when installed (`apt-get install chromium`). */
export const SYSTEM_CHROMIUM = "/usr/bin/chromium";
/** Screenshots of the browser tests (git-ignored). */
export const ARTIFACTS = join(import.meta.dirname, "..", "artifacts");

const ROOT = join(import.meta.dirname, "..", "..");
/** Where the npm package's Chromium is unpacked: node_modules goes, it goes. */
const CACHE = join(ROOT, "node_modules", ".cache");

/**
 * The Chromium the browser tests drive, never one downloaded by a test tool: CHROMIUM_PATH if set,
 * else Debian's (/usr/bin/chromium) if installed, else the one inside the @sparticuz/chromium dev
 * dependency (a brotli-compressed headless Chromium shipped in the npm package, so `npm install` is
 * all a fresh machine needs). That one is unpacked once into node_modules/.cache/chromium-VERSION.
 */
export function chromiumExecutable(): string {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen) {
    if (!existsSync(chosen)) throw new Error(`CHROMIUM_PATH=${chosen}: no such file`);
    return chosen;
  }
  if (existsSync(SYSTEM_CHROMIUM)) return SYSTEM_CHROMIUM;
  return unpackedChromium();
}

function unpackedChromium(): string {
  const pkg = join(ROOT, "node_modules", "@sparticuz", "chromium");
  if (!existsSync(pkg)) {
    throw new Error(
      `No Chromium: ${SYSTEM_CHROMIUM} is missing and so is the dev dependency @sparticuz/chromium (run "npm install")`,
    );
  }
  const { version } = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")) as {
    version: string;
  };
  const dir = join(CACHE, `chromium-${version}`);
  const binary = join(dir, "chromium");
  if (existsSync(binary)) return binary;
  // The package unpacks into os.tmpdir(): a child with TMPDIR set to a staging folder of its own,
  // then one rename, so browser test files starting side by side never see half a binary.
  mkdirSync(CACHE, { recursive: true });
  const staging = mkdtempSync(join(CACHE, `chromium-${version}-unpacking-`));
  const unpack = spawnSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      'const { default: c } = await import("@sparticuz/chromium"); process.stdout.write(await c.executablePath());',
    ],
    { cwd: ROOT, env: { ...process.env, TMPDIR: staging }, encoding: "utf8" },
  );
  if (unpack.status !== 0 || unpack.stdout !== join(staging, "chromium")) {
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`Unpacking @sparticuz/chromium failed: ${unpack.stderr || unpack.stdout}`);
  }
  try {
    renameSync(staging, dir);
  } catch (err) {
    // Another test file unpacked it first: keep theirs.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(binary)) throw err;
  }
  return binary;
}

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
  const executablePath = chromiumExecutable();
  mkdirSync(ARTIFACTS, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), `${opts.name}-chromium-`));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    // As root (CI, containers) only without the sandbox; the background-networking flags keep it
    // from calling Google's hosts, which a closed network refuses many times a second.
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
