// The flood buckets of the Bot API emulator, as pure functions: the 429s with retry_after that
// the notifier and its benchmark rely on.
import { describe, expect, it } from "vitest";
import { FloodControl } from "../../dev/playground/emulator/index.ts";

describe("flood control", () => {
  it("lets a small burst through per chat, then asks to wait, then refills", () => {
    let clock = 0;
    const flood = new FloodControl({}, () => clock);

    expect([1, 2, 3, 4].map(() => flood.take(7, false))).toEqual([
      undefined,
      undefined,
      undefined,
      1,
    ]);
    expect(flood.take(8, false)).toBeUndefined(); // another chat is not affected
    clock += 999;
    expect(flood.take(7, false)).toBe(1);
    clock += 1;
    expect(flood.take(7, false)).toBeUndefined();
  });

  it("limits the whole bot and asks for whole seconds", () => {
    const clock = 0;
    const flood = new FloodControl(
      { globalPerSecond: 2, perChatBurst: 10, perChatPerSecond: 10 },
      () => clock,
    );

    expect([1, 2, 3].map((chat) => flood.take(chat, false))).toEqual([undefined, undefined, 1]);
    const slow = new FloodControl({ globalPerSecond: 0.25, globalBurst: 1 }, () => clock);
    expect([slow.take(1, false), slow.take(2, false)]).toEqual([undefined, 4]);
  });

  it("allows 20 messages a minute in a group", () => {
    let clock = 0;
    const flood = new FloodControl({ perChatBurst: 100, perChatPerSecond: 100 }, () => clock);
    const answers = Array.from({ length: 21 }, () => flood.take(-500, true));

    expect(answers.filter((a) => a === undefined)).toHaveLength(20);
    expect(answers[20]).toBe(3); // one message every 3 s from now on
    expect(flood.take(-501, true)).toBeUndefined(); // another group is not affected
    clock += 3_000;
    expect(flood.take(-500, true)).toBeUndefined();
  });
});
