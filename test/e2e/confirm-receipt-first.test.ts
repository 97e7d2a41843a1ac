import type { ApiClientOptions } from "grammy";
import { afterEach, describe, expect, it } from "vitest";
import { useTestSystem } from "../support/system.ts";
import { waitUntil } from "../support/wait.ts";

/**
 * Issue 18, target 4 (tap on Confirm -> receipt): taking the confirmation's buttons off is an
 * edit for the eye only (a second tap finds the flow over either way), so it is not on the way to
 * the receipt. The order is placed and the receipt sent while that edit is on its way; an edit
 * that fails is logged, and the order the user confirmed still goes through, once.
 */
describe("Confirm: the receipt does not wait for the confirmation's buttons to go (Redis)", () => {
  const ts = useTestSystem({ redis: true });

  /** Bot API calls of the checkout that are for the eye only: held or refused here. */
  type Target = "buttons off" | "tap answer";
  const isTarget = (target: Target, url: string, body: unknown): boolean => {
    if (target === "tap answer") return url.endsWith("/answerCallbackQuery");
    if (!url.endsWith("/editMessageText") || typeof body !== "string") return false;
    const markup = (JSON.parse(body) as { reply_markup?: { inline_keyboard?: unknown[][] } })
      .reply_markup;
    // No buttons left (grammY sends an empty keyboard as one empty row).
    return markup?.inline_keyboard?.flat().length === 0;
  };

  /** The bot's (and its conversations') fetch, with the `target` call held or refused. */
  function intercept(target: Target, action: "hold" | "fail") {
    const options = ts.system.bot.api.options as ApiClientOptions;
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let seen = 0;
    const fetchFn = async (
      url: string,
      init?: {
        body?: unknown;
        signal?: { aborted: boolean; addEventListener: AbortSignal["addEventListener"] };
      },
    ) => {
      if (isTarget(target, String(url), init?.body)) {
        seen++;
        if (action === "fail") {
          return new Response(
            JSON.stringify({
              ok: false,
              error_code: 400,
              description: "Bad Request: message to edit not found",
            }),
            { status: 400, headers: { "content-type": "application/json" } },
          );
        }
        await released;
      }
      // grammY hands over the AbortSignal of its polyfill, which Node 24's fetch refuses: a
      // native one that follows it.
      const { signal, ...rest } = init ?? {};
      const native = new AbortController();
      if (signal?.aborted) native.abort();
      else signal?.addEventListener("abort", () => native.abort());
      return fetch(url, { ...rest, signal: native.signal } as RequestInit);
    };
    options.fetch = fetchFn as unknown as ApiClientOptions["fetch"];
    return { release, seen: () => seen };
  }
  const buttonsOffEdit = (action: "hold" | "fail") => intercept("buttons off", action);

  afterEach(() => {
    delete (ts.system.bot.api.options as ApiClientOptions).fetch;
  });

  it("shows the receipt while the edit that takes the buttons off is still on its way", async () => {
    const u = ts.user(311);
    const confirmation = await u.mobileToConfirm("9841230311", "150");
    const edit = buttonsOffEdit("hold");

    const receipt = await u.tap("✅ Confirm", /Order \d+/, 5_000);
    const ref = /Order (\d+)/.exec(receipt.text)?.[1];
    expect(ref).toBeDefined();
    // The receipt came first: the confirmation still shows its buttons.
    expect(edit.seen()).toBe(1);
    const shown = () => u.chat().find((m) => m.id === confirmation.id);
    expect(u.hasButton("✅ Confirm", shown())).toBe(true);

    edit.release();
    await waitUntil(() => !u.hasButton("✅ Confirm", shown()), "the buttons to go", {
      timeoutMs: 5_000,
      intervalMs: 10,
    });
    await u.waitFor(new RegExp(`Order ${ref} succeeded`), 10_000);
    const mine = await ts.system.orders.listByUser(u.id);
    expect(mine.map((o) => o.reference)).toEqual([ref]);
  }, 30_000);

  it("places the confirmed order once when the buttons cannot be taken off", async () => {
    const u = ts.user(312);
    await u.mobileToConfirm("9841230312", "150");
    const edit = buttonsOffEdit("fail");

    const receipt = await u.tap("✅ Confirm", /Order \d+/, 5_000);
    const ref = /Order (\d+)/.exec(receipt.text)?.[1];
    expect(edit.seen()).toBe(1);
    await u.waitFor(new RegExp(`Order ${ref} succeeded`), 10_000);
    const mine = await ts.system.orders.listByUser(u.id);
    expect(mine.map((o) => o.reference)).toEqual([ref]);
    expect(
      ts.logs.some((l) => l.includes("the confirmation's buttons could not be taken off")),
    ).toBe(true);
    // A second tap on the Confirm left on screen places nothing more.
    const answered = u.emu.callbackAnswers().length;
    u.press("✅ Confirm");
    await waitUntil(
      () =>
        u.emu
          .callbackAnswers()
          .slice(answered)
          .some((a) => a.chat_id === u.id && /no longer active/.test(a.text ?? "")),
      "the second tap to be told the button is no longer active",
      { timeoutMs: 5_000, intervalMs: 10 },
    );
    expect((await ts.system.orders.listByUser(u.id)).length).toBe(1);
  }, 30_000);

  it("shows the receipt while the answer to the Confirm tap is still on its way", async () => {
    const u = ts.user(313);
    await u.mobileToConfirm("9841230313", "150");
    const answer = intercept("tap answer", "hold");
    const receipt = await u.tap("✅ Confirm", /Order \d+/, 5_000);
    const ref = /Order (\d+)/.exec(receipt.text)?.[1];
    expect(answer.seen()).toBe(1);
    answer.release();
    await u.waitFor(new RegExp(`Order ${ref} succeeded`), 10_000);
    const mine = await ts.system.orders.listByUser(u.id);
    expect(mine.map((o) => o.reference)).toEqual([ref]);
  }, 30_000);
});
