import type { Context } from "grammy";
import { describe, expect, it } from "vitest";
import { finishWithUpdate, settleDeferred } from "../../src/bot/deferred.ts";

/**
 * A write a flow defers (the idle deadline) runs alongside what follows (the conversation state
 * write) and the update ends only once it finished; its failure still fails the update.
 */
describe("writes finished with the update", () => {
  const later = <T>(ms: number, value: T) =>
    new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

  it("lets the rest of the update run, then waits for the write", async () => {
    const ctx = {} as Context;
    const log: string[] = [];
    await settleDeferred()(ctx, async () => {
      await finishWithUpdate(
        ctx,
        later(30, null).then(() => log.push("armed")),
      );
      log.push("state saved");
    });
    log.push("update done");
    expect(log).toEqual(["state saved", "armed", "update done"]);
  });

  it("fails the update when the write fails, after the rest ran", async () => {
    const ctx = {} as Context;
    const log: string[] = [];
    await expect(
      settleDeferred()(ctx, async () => {
        await finishWithUpdate(ctx, Promise.reject(new Error("redis down")));
        log.push("state saved");
      }),
    ).rejects.toThrow("redis down");
    expect(log).toEqual(["state saved"]);
  });

  it("keeps the update's own error, after the write settled", async () => {
    const ctx = {} as Context;
    let armed = false;
    await expect(
      settleDeferred()(ctx, async () => {
        await finishWithUpdate(
          ctx,
          later(20, null).then(() => {
            armed = true;
          }),
        );
        throw new Error("handler failed");
      }),
    ).rejects.toThrow("handler failed");
    expect(armed).toBe(true);
  });

  it("awaits the write in place where no update collects it", async () => {
    let armed = false;
    await finishWithUpdate(
      {},
      later(10, null).then(() => {
        armed = true;
      }),
    );
    expect(armed).toBe(true);
  });
});
