import type { Logger } from "../logger.ts";
import type { TopUps } from "./service.ts";

/**
 * Looks up initiated and pending top-ups until the gateway says how they ended (a redirect that
 * never came is settled here), watches completed ones for a refund for a while, and pushes what a
 * crash left untold. Every process may run one: lookups and `apply` are idempotent.
 */
export function createTopUpReconciler(opts: {
  topUps: TopUps;
  intervalMs: number;
  logger: Logger;
}) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  const pass = async () => {
    if (running) return;
    running = opts.topUps
      .reconcile()
      .catch((err) => opts.logger.warn({ err: String(err) }, "top-up reconcile pass failed"))
      .finally(() => {
        running = undefined;
      });
    await running;
  };
  return {
    pass,
    start() {
      if (timer) return;
      timer = setInterval(() => void pass(), opts.intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
