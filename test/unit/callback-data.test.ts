import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addMoneyButtonData,
  flowButtons,
  heldTopUpButton,
  historyPageButton,
  isGlobalCallback,
  languageButton,
  leaveButton,
  MAX_CALLBACK_BYTES,
  menuButton,
  repeatButton,
  reportProblemButton,
  saveNameButton,
  shortcutButton,
  type ValueButton,
} from "../../src/bot/callback-data.ts";
import { CATEGORIES } from "../../src/catalog/index.ts";
import { CONSTANT_BUTTONS, VALUE_BUTTONS } from "../support/callback-data.ts";

/** Values each kind carries, for the properties below. */
const valueArbs = {
  menu: fc.stringMatching(/^[a-z][a-z0-9_-]{0,31}$/),
  language: fc.constantFrom("en", "ne", "hi"),
  repeat: fc.stringMatching(/^[1-9]\d{0,14}$/),
  historyPage: fc.integer({ min: 0, max: 999_999 }),
  saveName: fc.stringMatching(/^[1-9]\d{0,14}$/),
  // What a mid-flow command or menu button would have started: a command's text or a global button.
  leave: fc.oneof(
    fc.stringMatching(/^\/[A-Za-z][A-Za-z0-9_]{0,20}( [0-9a-z ]{0,30})?$/),
    fc.stringMatching(/^[a-z][a-z0-9_-]{0,31}$/).map((c) => menuButton.build(c)),
    fc.stringMatching(/^[1-9]\d{0,14}$/).map((r) => repeatButton.build(r)),
  ),
  value: fc
    .string({ minLength: 1, maxLength: 62, unit: "grapheme" })
    .filter((s) => Buffer.byteLength(`v:${s}`) <= MAX_CALLBACK_BYTES),
  page: fc.integer({ min: 0, max: 999_999 }),
  // A step of a flow named by the confirmation's Edit button.
  edit: fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/),
  // A held top-up's decision, with the figure shown (a Khalti pidx is 22 characters).
  heldTopUp: fc.record(
    {
      d: fc.constantFrom("i", "p", "r"),
      paymentId: fc.stringMatching(/^[A-Za-z0-9_-]{6,22}$/),
      shownPaisa: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
    },
    { requiredKeys: ["d", "paymentId"] },
  ),
} as const;
type Kind = keyof typeof VALUE_BUTTONS;
const KINDS = Object.keys(VALUE_BUTTONS) as Kind[];
const codec = (k: Kind) => VALUE_BUTTONS[k] as ValueButton<unknown>;

/** Any button of any kind, with its kind. */
const anyButton = fc.oneof(
  ...KINDS.map((kind) =>
    valueArbs[kind].map((value) => ({ kind, data: codec(kind).build(value) })),
  ),
  ...Object.entries(CONSTANT_BUTTONS).map(([kind, b]) => fc.constant({ kind, data: b.data })),
);

describe("callback data", () => {
  it("keeps the strings buttons already in chats carry", () => {
    expect(menuButton.build("mobile")).toBe("m:mobile");
    expect(languageButton.build("ne")).toBe("lang:ne");
    expect(repeatButton.build("1234567")).toBe("rep:1234567");
    expect(flowButtons.value.build("NTC")).toBe("v:NTC");
    expect(flowButtons.page.build(2)).toBe("p:2");
    expect(historyPageButton.build(1)).toBe("hp:1");
    expect(leaveButton.build("/status 42")).toBe("lv:/status 42");
    expect(leaveButton.build("m:water")).toBe("lv:m:water");
    expect(flowButtons.keep.data).toBe("kp");
    // A held top-up's credit carries the figure shown; a button sent before it did still parses.
    const pidx = "AbCdEfGhIjKlMnOpQrStUv";
    expect(heldTopUpButton.build({ d: "p", paymentId: pidx, shownPaisa: 60_000 })).toBe(
      `tuh:p:${pidx}:60000`,
    );
    expect(heldTopUpButton.parse(`tuh:p:${pidx}`)).toEqual({ d: "p", paymentId: pidx });
    expect(heldTopUpButton.fits({ d: "p", paymentId: pidx, shownPaisa: 2 ** 53 - 1 })).toBe(true);
    expect(heldTopUpButton.fits({ d: "p", paymentId: "a".repeat(56), shownPaisa: 100 })).toBe(
      false,
    );
    expect([flowButtons.cancel.data, flowButtons.confirm.data, flowButtons.retry.data]).toEqual([
      "x",
      "ok",
      "r",
    ]);
    // Every category's menu button can be built.
    for (const c of CATEGORIES) expect(menuButton.parse(menuButton.build(c))).toBe(c);
  });

  it("round-trips every kind: parse(build(x)) = x", () => {
    for (const kind of KINDS) {
      fc.assert(
        fc.property(valueArbs[kind], (value: unknown) => {
          const data = codec(kind).build(value);
          expect(Buffer.byteLength(data)).toBeLessThanOrEqual(MAX_CALLBACK_BYTES);
          expect(codec(kind).parse(data)).toEqual(value);
        }),
      );
    }
  });

  it("parses a button as its own kind only (no two kinds' data overlap)", () => {
    fc.assert(
      fc.property(anyButton, ({ kind, data }) => {
        const parsedAs = [
          ...KINDS.filter((k) => codec(k).parse(data) !== null),
          ...Object.entries(CONSTANT_BUTTONS)
            .filter(([, b]) => b.is(data))
            .map(([k]) => k),
        ];
        expect(parsedAs).toEqual([kind]);
      }),
    );
    // And statically: no prefix starts another, no constant starts with a prefix.
    const prefixes = KINDS.map((k) => codec(k).prefix);
    for (const a of prefixes)
      for (const b of prefixes) if (a !== b) expect(b.startsWith(a), `${a} / ${b}`).toBe(false);
    for (const c of Object.values(CONSTANT_BUTTONS))
      for (const p of prefixes) expect(c.data.startsWith(p), `${c.data} / ${p}`).toBe(false);
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });

  it("refuses malformed and forged data", () => {
    const refused: [Kind, string | undefined][] = [
      ["menu", "m:"],
      ["menu", "m:Mobile"],
      ["menu", "m:mobile\n"],
      ["menu", "m:../x"],
      ["menu", `m:${"a".repeat(33)}`],
      ["menu", "mobile"],
      ["menu", undefined],
      ["language", "lang:"],
      ["language", "lang:fr"],
      ["language", "lang:EN"],
      ["language", "lang:en "],
      ["repeat", "rep:"],
      ["repeat", "rep:0123"],
      ["repeat", "rep:abc"],
      ["repeat", "rep:1234567890123456"],
      ["repeat", "rep:-1"],
      ["leave", "lv:"],
      ["leave", "lv:hello"],
      ["leave", "lv:/"],
      ["leave", "lv:m:Mobile"],
      ["leave", "lv:x"],
      ["leave", `lv:/${"a".repeat(61)}`],
      ["value", "v:"],
      ["value", `v:${"a".repeat(63)}`],
      ["value", `v:${"é".repeat(40)}`],
      ["page", "p:"],
      ["page", "p:x"],
      ["page", "p:-1"],
      ["page", "p:01"],
      ["page", "p:1.5"],
      ["page", "p:1e3"],
      ["page", "p: 1"],
      ["page", "p:1000000"],
      ["historyPage", "hp:"],
      ["historyPage", "hp:-1"],
      ["historyPage", "hp:01"],
      ["historyPage", "hp:1.5"],
      ["historyPage", "hp:1000000"],
      ["historyPage", "p:1"],
      ["heldTopUp", "tuh:"],
      ["heldTopUp", "tuh:x:AbCdEfGhIjKlMnOpQrStUv"],
      ["heldTopUp", "tuh:p:AbCdEfGhIjKlMnOpQrStUv:"],
      ["heldTopUp", "tuh:p:AbCdEfGhIjKlMnOpQrStUv:007"],
      ["heldTopUp", "tuh:p:AbCdEfGhIjKlMnOpQrStUv:-1"],
      ["heldTopUp", "tuh:p:AbCdEfGhIjKlMnOpQrStUv:1.5"],
      ["heldTopUp", "tuh:p:AbCdEfGhIjKlMnOpQrStUv:99999999999999999"],
      ["heldTopUp", "tuh:p:AbCd!fGhIjKlMnOpQrStUv:100"],
    ];
    for (const [kind, data] of refused) expect(codec(kind).parse(data), `${data}`).toBeNull();
    expect(flowButtons.cancel.is("x ")).toBe(false);
    expect(flowButtons.confirm.is("OK")).toBe(false);
    expect(flowButtons.retry.is(undefined)).toBe(false);
  });

  it("refuses to build a button Telegram or the parser would refuse", () => {
    expect(() => menuButton.build("Not an id")).toThrow(RangeError);
    expect(() => repeatButton.build("007")).toThrow(RangeError);
    expect(() => flowButtons.page.build(-1)).toThrow(RangeError);
    expect(() => flowButtons.page.build(1.5)).toThrow(RangeError);
    expect(() => historyPageButton.build(-1)).toThrow(RangeError);
    expect(flowButtons.value.fits("a".repeat(62))).toBe(true);
    expect(flowButtons.value.fits("a".repeat(63))).toBe(false);
    expect(() => flowButtons.value.build("a".repeat(63))).toThrow(RangeError);
    // 31 characters, but 62 bytes: fits; 32 would not (Telegram would refuse the whole message).
    expect(flowButtons.value.fits("é".repeat(31))).toBe(true);
    expect(flowButtons.value.fits("é".repeat(32))).toBe(false);
    expect(flowButtons.value.fits("")).toBe(false);
  });

  it("lets only well-formed global buttons leave a conversation", () => {
    // The menu, language and repeat buttons, and issue 30's next steps: Save a name, Report a
    // problem, a bare number's "which is it?", Add money.
    for (const data of [
      "m:mobile",
      "m:water",
      "lang:hi",
      "rep:42",
      "sn:42",
      "cpo:42",
      "sc:mobile:9841000000",
      "am",
    ])
      expect(isGlobalCallback(data), data).toBe(true);
    // A history page turned inside a flow must not end it.
    for (const data of [
      "m:",
      "lang:xx",
      "rep:abc",
      "sn:0",
      "cpo:x",
      "sc:mobile",
      "amx",
      "x",
      "ok",
      "r",
      "v:m:mobile",
      "p:1",
      "hp:1",
      undefined,
    ])
      expect(isGlobalCallback(data), `${data}`).toBe(false);
    const globals = [
      menuButton,
      languageButton,
      repeatButton,
      saveNameButton,
      reportProblemButton,
      shortcutButton,
    ];
    // Short strings over the buttons' own letters, so the generator meets "am" and the prefixes
    // (an arbitrary string found "am" in about one run of ten, against an oracle that forgot it).
    const near = fc.oneof(
      fc.string({ maxLength: 64 }),
      fc
        .tuple(
          fc.constantFrom("m:", "lang:", "rep:", "sn:", "cpo:", "sc:", "am", "a", ""),
          fc.string({
            unit: fc.constantFrom("m", "o", "b", "i", "l", "e", ":", "4", "2", "9", "a"),
            maxLength: 12,
          }),
        )
        .map(([a, b]) => a + b),
    );
    fc.assert(
      fc.property(near, (s) => {
        const global = isGlobalCallback(s);
        expect(global).toBe(globals.some((b) => b.parse(s) !== null) || addMoneyButtonData.is(s));
        if (global) expect(s).toMatch(/^((m|lang|rep|sn|cpo|sc):|am$)/);
      }),
    );
  });
});
