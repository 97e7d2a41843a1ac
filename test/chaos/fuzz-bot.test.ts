import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TranscriptEntry } from "../../dev/playground/emulator/index.ts";
import { report, secretNeedles } from "../support/chaos/env.ts";
import { secretFigures } from "../support/chaos/logs.ts";
import { useChaosStack } from "../support/chaos/stack.ts";
import { ChatUser } from "../support/chat.ts";

/**
 * Every conversation, walked step by step with fast-check junk before each real answer: random and
 * huge text (any script, emoji, up to Telegram's 4,096 characters; never digits, so it cannot be a
 * valid number or amount by luck), stickers, photos with captions, forged callback data on the
 * question being asked, presses of buttons of earlier questions, and presses of an earlier
 * confirmation's "Confirm". The bot must answer each (a re-ask, a "use the buttons", at the
 * confirmation an edit of it in place, a "button no longer active") or ignore it, keep every earlier answer (the real answer after the junk still
 * works), never say "something went wrong", and never place an order: every flow ends in Cancel.
 */

/** Runs actions no faster than one per `ms`. */
function pacer(ms: number) {
  let last = 0;
  return async <T>(action: () => Promise<T>): Promise<T> => {
    const wait = last + ms - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    last = Date.now();
    return action();
  };
}

type Step = { at: string; act: (u: ChatUser) => Promise<TranscriptEntry> };

const CONFIRM = /Please check your order/;
const cancel: Step = {
  at: "confirmation",
  act: (u) => u.tap("✖ Cancel", /Cancelled\. Nothing was charged/),
};
const menu = (label: string, expect: RegExp): Step[] => [
  { at: "no conversation", act: (u) => u.say("/recharge", /What would you like to pay/) },
  { at: "menu", act: (u) => u.tap(label, expect) },
];

const FLOWS: Record<string, Step[]> = {
  mobile: [
    ...menu("📱 Mobile top-up", /Which mobile number/),
    { at: "number", act: (u) => u.say("9841234567", /How much\?/) },
    { at: "amount", act: (u) => u.say("150", CONFIRM) },
    cancel,
  ],
  datapack: [
    ...menu("📶 Data pack", /Which mobile number is the pack for/),
    { at: "number", act: (u) => u.say("9801234567", /is an Ncell number/) },
    { at: "product", act: (u) => u.tap("📶 Data", /Ncell Data packs for 9801234567/) },
    { at: "package", act: (u) => u.tap("1.5 GB / 1 day · Rs 100", CONFIRM) },
    cancel,
  ],
  dth: [
    ...menu("📺 TV (DTH)", /Which TV \(DTH\) operator/),
    { at: "operator", act: (u) => u.tap("Dish Home", /Your Dish Home customer id/) },
    { at: "customer", act: (u) => u.say("DH123456", /Choose a package/) },
    { at: "package", act: (u) => u.tap(/· Rs /, CONFIRM) },
    cancel,
  ],
  internet: [
    ...menu("🌐 Internet", /Which internet provider\?/),
    { at: "provider (searchable)", act: (u) => u.say("vianet", /Your Vianet username/) },
    { at: "username", act: (u) => u.say("ram1234", /Vianet packages for ram1234/) },
    { at: "package", act: (u) => u.tap(/· Rs /, CONFIRM) },
    cancel,
  ],
  landline: [
    ...menu("☎️ Landline", /Which line do you want to recharge/),
    { at: "line", act: (u) => u.tap("NTC Fibre Voice", /Which NTC Fibre Voice number/) },
    { at: "number", act: (u) => u.say("512341234", /How much/) },
    { at: "amount", act: (u) => u.say("750", CONFIRM) },
    cancel,
  ],
  water: [
    ...menu("🚰 Water bill", /which office is your water connection with/),
    { at: "office (searchable)", act: (u) => u.say("kamaladi", /customer id at KUKL Kamaladi/) },
    { at: "customer", act: (u) => u.say("123456", /For which month\?/) },
    { at: "month", act: (u) => u.tap("Kartik", /Pay the due of/) },
    { at: "amount", act: (u) => u.tap(/Pay the due/, CONFIRM) },
    cancel,
  ],
  electricity: [
    ...menu("💡 Electricity bill", /which distribution centre/),
    { at: "office (searchable)", act: (u) => u.say("pokhara", /Your SC number/) },
    { at: "sc number", act: (u) => u.say("012.34.567", /Your customer id/) },
    { at: "customer", act: (u) => u.say("778899", /A phone number for this bill/) },
    { at: "phone", act: (u) => u.say("9841234567", /Pay the due of/) },
    { at: "amount", act: (u) => u.tap(/Pay the due/, CONFIRM) },
    cancel,
  ],
  india: [
    ...menu("🇮🇳 India recharge", /India: what do you want to recharge/),
    { at: "kind", act: (u) => u.tap("📱 Prepaid mobile", /Which mobile number/) },
    { at: "number", act: (u) => u.say("9876543210", /which operator/) },
    { at: "operator", act: (u) => u.tap("Airtel Prepaid", /Which telecom circle/) },
    { at: "circle (searchable)", act: (u) => u.say("delhi", /Choose a plan for/) },
    { at: "plan", act: (u) => u.tap(/₹299/, CONFIRM) },
    cancel,
  ],
  status: [
    { at: "no conversation", act: (u) => u.say("/status", /Send the reference number/) },
    { at: "reference", act: (u) => u.tap("✖ Cancel", /Cancelled/) },
  ],
};

type Junk =
  | { type: "text"; text: string }
  | { type: "sticker"; emoji: string }
  | { type: "photo"; caption: string }
  | { type: "forged callback"; data: string }
  | { type: "old button"; pick: number }
  | { type: "old confirm" };

const noDigits = (s: string) => !/\p{Nd}/u.test(s);
const byteLength = (s: string) => Buffer.byteLength(s, "utf8");
/** Data that cannot be a real answer to the current question nor leave the conversation. */
const harmlessData = (s: string) =>
  byteLength(s) >= 1 &&
  byteLength(s) <= 64 &&
  s !== "x" &&
  s !== "ok" &&
  s !== "kp" &&
  s !== "bk" &&
  !/^(m|lang|rep|lv|e):/.test(s) &&
  !/^p:\d/.test(s) &&
  (!s.startsWith("v:") || s.includes("§"));

const junkArb: fc.Arbitrary<Junk> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .oneof(
        fc.string({ unit: "grapheme", minLength: 1, maxLength: 80 }),
        fc.string({ unit: "binary", minLength: 1, maxLength: 40 }),
        fc
          .integer({ min: 201, max: 4_000 })
          .chain((n) => fc.string({ unit: "grapheme-ascii", minLength: n, maxLength: n })),
      )
      .filter((s) => noDigits(s) && s.trim() !== "")
      // A leading "§" keeps it from being a command or a valid id; the rest is random.
      .map((s) => ({ type: "text" as const, text: `§${s}`.slice(0, 4_096) })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("👍", "🔥", "🤖")
      .map((emoji) => ({ type: "sticker" as const, emoji })),
  },
  {
    weight: 1,
    arbitrary: fc
      .string({ maxLength: 200 })
      .map((caption) => ({ type: "photo" as const, caption })),
  },
  {
    weight: 3,
    arbitrary: fc
      .oneof(
        fc.string({ minLength: 1, maxLength: 64 }),
        fc.constantFrom("v:§", "p:x", "r", "v:", "ok "),
        fc.string({ maxLength: 20 }).map((s) => `v:§${s}`),
      )
      .filter(harmlessData)
      .map((data) => ({ type: "forged callback" as const, data })),
  },
  { weight: 2, arbitrary: fc.nat().map((pick) => ({ type: "old button" as const, pick })) },
  { weight: 1, arbitrary: fc.constant({ type: "old confirm" as const }) },
);

describe("junk at every conversation step", () => {
  const stack = useChaosStack("fuzz-bot", { webhook: false });
  const { secrets, logs } = stack;

  it("re-asks or ignores, never crashes, never places an order", async () => {
    const counts: Record<string, number> = {};
    const users: ChatUser[] = [];
    let steps = 0;
    const runs = [0, 1].flatMap((round) =>
      Object.entries(FLOWS).map(([name, flow], i) => ({ round, name, flow, n: round * 50 + i })),
    );
    // All conversations at once; each user at a human pace (the bot's flood limit is 30 updates
    // per 10 s, and what a flood sends meanwhile is ignored by design).
    await Promise.all(
      runs.map(async ({ name, flow, n }) => {
        const u = new ChatUser(stack.emu.emulator, 670_000 + n);
        users.push(u);
        const paced = pacer(400);
        // An earlier order that was shown and cancelled: its Confirm button stays in the chat.
        await paced(() => u.say("/recharge", /What would you like to pay/));
        await paced(() => u.tap("📱 Mobile top-up", /Which mobile number/));
        await paced(() => u.say("9841670000", /How much\?/));
        const oldConfirm = await paced(() => u.say("100", CONFIRM));
        await paced(() => u.tap("✖ Cancel", /Cancelled/));

        for (const [k, step] of flow.entries()) {
          const junk =
            fc.sample(fc.array(junkArb, { minLength: 2, maxLength: 4 }), {
              numRuns: 1,
              seed: n * 100 + k,
            })[0] ?? [];
          for (const j of junk) {
            counts[j.type] = (counts[j.type] ?? 0) + 1;
            await paced(() => inflict(u, j, oldConfirm.id, step.at));
          }
          steps++;
          try {
            await paced(() => step.act(u));
          } catch (err) {
            throw new Error(
              `${name}, at "${step.at}" after ${JSON.stringify(junk).slice(0, 300)}: ${err}`,
            );
          }
        }
      }),
    );

    const orders = (
      await Promise.all(users.map((u) => stack.app.orders.listByUser(u.id, 10)))
    ).flat();
    const errors = users.flatMap((u) =>
      u.botMessages().filter((m) => /Something went wrong/.test(m.text)),
    );
    const answers = stack.emu.emulator.callbackAnswers();
    const scan = logs.scan(secretNeedles(secrets));
    report("junk at every conversation step (fast-check)", {
      conversations: users.length,
      "steps with junk before the real answer": steps,
      "junk by kind": counts,
      "callback answers (expired or silent)": answers.length,
      "answered 'no longer active'": answers.filter((a) => /no longer active/.test(a.text ?? ""))
        .length,
      "'something went wrong' messages": errors.length,
      "error log lines": logs.errors().length,
      "orders placed": orders.length,
      "execute requests": stack.provider.total(stack.provider.executes),
      ...secretFigures(scan),
    });
    expect(errors).toEqual([]);
    expect(logs.errors()).toEqual([]);
    expect(orders).toEqual([]);
    expect(stack.provider.total(stack.provider.executes)).toBe(0);
    expect(scan.leaks).toEqual([]);
  });

  /** Does one junk action and waits until the bot has dealt with it. */
  async function inflict(u: ChatUser, j: Junk, oldConfirmId: number, at: string): Promise<void> {
    const emu2 = u.emu;
    const prompt = u.botMessages().findLast((m) => (m.inlineKeyboard ?? []).length > 0);
    const press = (messageId: number, data: string, force: boolean) => {
      const sent = emu2.pressButton(u.id, messageId, data, { force });
      return emu2.waitFor(
        () => emu2.callbackAnswers().some((a) => a.callback_query_id === sent.callback_query_id),
        10_000,
      );
    };
    const reply = async (messageId: number) => {
      // The confirmation answers what is typed by editing itself (a reason on top), sending
      // nothing new; the same reason again changes nothing, and the Cancel after it is handled
      // in order.
      if (at === "confirmation" && prompt) {
        await emu2.waitFor(
          () =>
            emu2
              .chat(u.id)
              .some((m) => m.id === prompt.id && /^Please use the buttons below/.test(m.text)),
          10_000,
        );
        return;
      }
      await emu2.waitForBotMessage(u.id, undefined, { afterId: messageId, timeoutMs: 10_000 });
    };
    switch (j.type) {
      case "text":
        return reply(emu2.sendText(u.id, j.text).message_id);
      case "sticker":
        return reply(emu2.sendSticker(u.id, { emoji: j.emoji }).message_id);
      case "photo":
        return reply(emu2.sendPhoto(u.id, { caption: j.caption }).message_id);
      case "forged callback": {
        if (!prompt) return;
        // Only data that cannot be a real answer nor leave the flow (menu, language and repeat
        // buttons leave it by design; forged repeat data is the security test's).
        await press(prompt.id, j.data, true);
        return;
      }
      case "old button": {
        const older = u
          .botMessages()
          .filter((m) => m.id !== prompt?.id)
          .flatMap((m) =>
            (m.inlineKeyboard ?? [])
              .flat()
              .filter(
                (b) =>
                  b.callback_data &&
                  b.callback_data !== "x" &&
                  !/^(m|lang|rep):/.test(b.callback_data),
              )
              .map((b) => ({ id: m.id, data: b.callback_data ?? "" })),
          );
        const pick = older[j.pick % Math.max(1, older.length)];
        if (pick) await press(pick.id, pick.data, true);
        return;
      }
      case "old confirm":
        await press(oldConfirmId, "ok", true);
        return;
      default:
        throw new Error(`unknown junk at ${at}`);
    }
  }
});
