import type { Api, ApiClientOptions } from "grammy";
import type { Update } from "grammy/types";
import type { BotApiEmulator } from "../../dev/playground/emulator/index.ts";

type RequestInit = NonNullable<ConstructorParameters<typeof Request>[1]>;

/**
 * Plays users against a bot whose updates the benchmark hands over itself (bot.handleUpdate):
 * the emulator creates each update as Telegram would (text, button press), the pump takes it out
 * of the emulator's getUpdates queue in process, outside the timed part.
 */
export function updatePump(emulator: BotApiEmulator, token: string) {
  let offset = 0;
  const ready = new Map<number, Update>();
  async function fetchBatch(): Promise<void> {
    const res = await emulator.app.request(`/bot${token}/getUpdates`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ offset, timeout: 0, limit: 100 }),
    });
    const body = (await res.json()) as { ok: boolean; result?: Update[]; description?: string };
    if (!body.ok || !body.result) throw new Error(`getUpdates failed: ${body.description}`);
    for (const u of body.result) {
      offset = Math.max(offset, u.update_id + 1);
      ready.set(u.update_id, u);
    }
  }
  return {
    async take(updateId: number): Promise<Update> {
      for (let tries = 0; !ready.has(updateId); tries++) {
        if (tries > 100) throw new Error(`update ${updateId} never showed up`);
        await fetchBatch();
      }
      const u = ready.get(updateId)!;
      ready.delete(updateId);
      return u;
    },
  };
}

/** One step of a scripted chat: what the user does and what the bot must answer with. */
export interface Step {
  name: string;
  act(emulator: BotApiEmulator, userId: number): { update_id: number };
  expect: RegExp;
}

/** An NTC prepaid number of the user's own (984 + 7 digits). */
export const mobileNumberOf = (userId: number) =>
  `984${String(userId % 10_000_000).padStart(7, "0")}`;

/** The complete mobile top-up, as test/e2e/mobile.test.ts walks it. */
export const MOBILE_FLOW: Step[] = [
  {
    name: "/recharge",
    act: (e, u) => e.sendText(u, "/recharge"),
    expect: /What would you like to pay/,
  },
  {
    name: "tap Mobile",
    act: (e, u) => e.clickButton(u, "📱 Mobile top-up"),
    expect: /Which mobile number/,
  },
  {
    name: "type number",
    act: (e, u) => e.sendText(u, mobileNumberOf(u)),
    // The number's series names the operator (issue 30): the amount is asked next.
    expect: /How much\?/,
  },
  { name: "type amount", act: (e, u) => e.sendText(u, "150"), expect: /Please check your order/ },
  { name: "tap Confirm", act: (e, u) => e.clickButton(u, "✅ Confirm"), expect: /Order \d+/ },
];

/** The echo baseline: the same number of updates, each a text the bot repeats. */
export const ECHO_FLOW: Step[] = MOBILE_FLOW.map((_step, i) => ({
  name: `echo ${i + 1}`,
  act: (e, u) => e.sendText(u, `hello ${i + 1}`),
  expect: new RegExp(`^hello ${i + 1}$`),
}));

/** The newest bot message in the chat must match the step's expectation (checked untimed). */
export function checkReply(emulator: BotApiEmulator, userId: number, step: Step): void {
  const last = emulator.lastBotMessage(userId);
  if (!last || !step.expect.test(last.text)) {
    throw new Error(
      `user ${userId} step "${step.name}": expected ${step.expect}, the bot said ${JSON.stringify(last?.text?.slice(0, 200))}`,
    );
  }
}

/**
 * grammY's `client.fetch` answered by the emulator in process (no socket, no HTTP parser): the
 * request grammY builds is handed to the emulator's Hono app as a Request. For a bot built by
 * createBot (which takes only `apiRoot`), `useInProcessFetch` sets it on the bot's client options
 * object, which grammY shares with every Api it derives from it: the per-update Api of
 * handleUpdate and the conversations plugin's own Api (`new Api(token, protoApi.options)`).
 */
export function inProcessFetch(emulator: BotApiEmulator): NonNullable<ApiClientOptions["fetch"]> {
  const fetchFn = async (
    url: unknown,
    init?: { method?: string; headers?: unknown; body?: unknown },
  ) =>
    // The emulator's own routes start at /bot<token>/ wherever the product mounts it.
    emulator.app.fetch(
      new Request(`http://emulator.invalid${String(url).slice(String(url).indexOf("/bot"))}`, {
        method: init?.method ?? "POST",
        headers: init?.headers as RequestInit["headers"],
        body: init?.body as RequestInit["body"],
      }),
    );
  return fetchFn as unknown as NonNullable<ApiClientOptions["fetch"]>;
}

export function useInProcessFetch(api: Api, emulator: BotApiEmulator): void {
  if (!api.options) throw new Error("the bot was built without client options");
  (api.options as ApiClientOptions).fetch = inProcessFetch(emulator);
}

/** Back to the network: grammY's own fetch to `apiRoot` (loopback HTTP to the emulator). */
export function clearInProcessFetch(api: Api): void {
  if (api.options) delete (api.options as ApiClientOptions).fetch;
}
