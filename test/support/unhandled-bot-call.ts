import { createServer } from "node:net";
import { Bot } from "grammy";

/**
 * Loaded with `--import` into the product's process by test/e2e/process-boundary.test.ts: on
 * SIGUSR2, a real Bot API call nobody awaits fails against a port nothing listens on. grammY's
 * error then carries the request's URL, the token in it (node-fetch's "request to .../bot<token>/
 * getMe failed"), as an unawaited call's rejection in the product would. The token is the
 * configured METRICS_TOKEN, so the product knows it as a secret.
 */
process.on("SIGUSR2", () => {
  const probe = createServer().listen(0, "127.0.0.1", () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => {
      const bot = new Bot(process.env.METRICS_TOKEN ?? "", {
        client: { apiRoot: `http://127.0.0.1:${port}` },
      });
      void bot.api.getMe();
    });
  });
});
