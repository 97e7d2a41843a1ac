import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cutLabel, graphemes, looksLikeAmount } from "../../src/whatsapp/labels.ts";
import {
  fitTitles,
  type Rendered,
  type RenderInput,
  renderMessage,
  splitText,
  typedChoice,
} from "../../src/whatsapp/render.ts";
import type { WaInteractive, WaOutbound } from "../../src/whatsapp/types.ts";

/* ------------------------------------------------------------------------------------------ *
 * A validator of the Cloud API's limits (whatsapp-notes.md §2), written apart from the code.  *
 * ------------------------------------------------------------------------------------------ */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function checkString(errors: string[], what: string, s: unknown, max: number): void {
  if (typeof s !== "string") return void errors.push(`${what}: not a string`);
  if (s.trim().length === 0) errors.push(`${what}: blank`);
  if (s.length > max) errors.push(`${what}: ${s.length} > ${max}`);
  if (LONE_SURROGATE.test(s)) errors.push(`${what}: cut inside a character`);
}

function checkUnique(errors: string[], what: string, values: string[]): void {
  if (new Set(values).size !== values.length) errors.push(`${what}: not unique ${values}`);
}

function checkInteractive(errors: string[], m: WaInteractive): void {
  checkString(errors, "body", m.body.text, 1024);
  if (m.type === "button") {
    const b = m.action.buttons;
    if (b.length < 1 || b.length > 3) errors.push(`${b.length} reply buttons`);
    for (const x of b) {
      if (x.type !== "reply") errors.push("button type");
      checkString(errors, "button id", x.reply.id, 256);
      checkString(errors, "button title", x.reply.title, 20);
    }
    checkUnique(
      errors,
      "button ids",
      b.map((x) => x.reply.id),
    );
    checkUnique(
      errors,
      "button titles",
      b.map((x) => x.reply.title),
    );
    return;
  }
  checkString(errors, "opener", m.action.button, 20);
  const sections = m.action.sections;
  const rows = sections.flatMap((s) => s.rows);
  if (sections.length < 1 || sections.length > 10) errors.push(`${sections.length} sections`);
  if (rows.length < 1 || rows.length > 10) errors.push(`${rows.length} rows`);
  for (const s of sections) {
    if (sections.length > 1) checkString(errors, "section title", s.title, 24);
    if (s.rows.length === 0) errors.push("empty section");
  }
  for (const r of rows) {
    checkString(errors, "row id", r.id, 200);
    checkString(errors, "row title", r.title, 24);
    if (r.description !== undefined) checkString(errors, "description", r.description, 72);
  }
  checkUnique(
    errors,
    "row ids",
    rows.map((r) => r.id),
  );
  checkUnique(
    errors,
    "row titles",
    rows.map((r) => r.title),
  );
}

/** Every broken limit of one outbound body; [] when WhatsApp would accept it. */
function violations(m: WaOutbound): string[] {
  const errors: string[] = [];
  if (m.type === "text") {
    checkString(errors, "text", m.text.body, 4096);
    if (m.text.preview_url !== false) errors.push("preview_url not false");
  } else if (m.type === "interactive") checkInteractive(errors, m.interactive);
  else errors.push(`unexpected ${m.type}`);
  return errors;
}

/* ------------------------------------------------------------------------------------------ *
 * Helpers.                                                                                     *
 * ------------------------------------------------------------------------------------------ */

/** The ids of every button and row, in send order. */
function ids(r: Rendered): string[] {
  return r.messages.flatMap((m) => {
    if (m.type !== "interactive") return [];
    const i = m.interactive;
    return i.type === "button"
      ? i.action.buttons.map((b) => b.reply.id)
      : i.action.sections.flatMap((s) => s.rows.map((row) => row.id));
  });
}

function interactive(m: WaOutbound | undefined): WaInteractive {
  if (m?.type !== "interactive") throw new Error(`not interactive: ${JSON.stringify(m)}`);
  return m.interactive;
}

function list(m: WaOutbound | undefined) {
  const i = interactive(m);
  if (i.type !== "list") throw new Error("not a list");
  return i;
}

function replies(m: WaOutbound | undefined) {
  const i = interactive(m);
  if (i.type !== "button") throw new Error("not reply buttons");
  return i;
}

function rowTitles(m: WaOutbound | undefined): string[] {
  return list(m).action.sections.flatMap((s) => s.rows.map((r) => r.title));
}

/** What a customer reads of the text, whitespace aside: lead text messages and the first body. */
function textRead(r: Rendered): string {
  const parts: string[] = [];
  for (const m of r.messages) {
    if (m.type === "text") parts.push(m.text.body);
    else if (m.type === "interactive") {
      parts.push(m.interactive.body.text);
      break;
    }
  }
  return parts.join("").replace(/\s+/gu, "");
}

const squeeze = (s: string) => s.replace(/\s+/gu, "");

const btn = (label: string, data: string) => ({ label, data });
const NAV = {
  en: [btn("‹ Back", "bk"), btn("✖ Cancel", "x")],
  ne: [btn("‹ पछाडि", "bk"), btn("✖ रद्द", "x")],
  hi: [btn("‹ पीछे", "bk"), btn("✖ रद्द करें", "x")],
};
const paging = (page: number, pages: number) => [
  btn("‹", `p:${(page + pages - 1) % pages}`),
  btn(`${page + 1}/${pages}`, `p:${page}`),
  btn("›", `p:${(page + 1) % pages}`),
];

function validAll(r: Rendered): void {
  for (const m of r.messages) expect(violations(m), JSON.stringify(m)).toEqual([]);
}

/* ------------------------------------------------------------------------------------------ *
 * Examples.                                                                                    *
 * ------------------------------------------------------------------------------------------ */

describe("no buttons: text messages", () => {
  it.each([
    ["en", "Recharge of Rs 100 to 9841234567 done."],
    ["ne", "९८४१२३४५६७ मा रु 100 रिचार्ज सफल भयो।"],
    ["hi", "9876543210 पर ₹199 का रिचार्ज हो गया।"],
  ])("%s: one text message, no link preview", (_lang, text) => {
    const r = renderMessage({ text, rows: [], opener: "Choose" });
    expect(r).toEqual({
      messages: [{ type: "text", text: { body: text, preview_url: false } }],
      choices: [],
    });
  });

  it("a keyboard of empty rows is no keyboard", () => {
    const r = renderMessage({ text: "Hi", rows: [[], []], opener: "Choose" });
    expect(r.messages).toEqual([{ type: "text", text: { body: "Hi", preview_url: false } }]);
  });

  it.each([
    ["en", "Order 123 recharged Rs 100 to Ncell prepaid."],
    ["ne", "अर्डर १२३ नेपाल टेलिकम प्रिपेडमा रु 100 रिचार्ज भयो।"],
    ["hi", "ऑर्डर 123 जियो प्रीपेड पर ₹199 का रिचार्ज हुआ।"],
  ])("%s: a body over 4096 splits at line breaks, nothing lost", (_lang, line) => {
    const text = Array.from({ length: 200 }, (_, i) => `${i + 1}. ${line}`).join("\n");
    expect(text.length).toBeGreaterThan(4096 * 2);
    const r = renderMessage({ text, rows: [], opener: "Choose" });
    expect(r.messages.length).toBeGreaterThanOrEqual(3);
    validAll(r);
    const bodies = r.messages.map((m) => (m.type === "text" ? m.text.body : ""));
    // Each piece is whole lines of the original.
    expect(bodies.join("\n")).toBe(text);
  });

  it("a long paragraph without line breaks splits between words", () => {
    const words = ["रिचार्ज", "recharge", "भुक्तानी", "भुगतान", "payment"];
    const text = Array.from({ length: 1500 }, (_, i) => words[i % words.length]).join(" ");
    const pieces = splitText(text);
    expect(pieces.length).toBeGreaterThan(1);
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(4096);
    expect(pieces.join(" ")).toBe(text);
  });

  it("a run without spaces is cut between graphemes, never inside one", () => {
    const text = "क्षत्रिय👨‍👩‍👧".repeat(600);
    const pieces = splitText(text, 100);
    expect(pieces.join("")).toBe(text);
    const whole = new Set(graphemes(text));
    for (const p of pieces) for (const g of graphemes(p)) expect(whole.has(g), g).toBe(true);
  });

  it("blank text without buttons sends nothing", () => {
    expect(renderMessage({ text: " \n ", rows: [], opener: "Choose" }).messages).toEqual([]);
  });
});

describe("1-3 buttons: reply buttons", () => {
  it.each([
    ["en", "Pay Rs 100 to 9841234567?", ["✔ Confirm", "✎ Edit amount", "✖ Cancel"]],
    ["ne", "९८४१२३४५६७ मा रु 100 तिर्ने?", ["✔ पुष्टि गर्नुहोस्", "✎ रकम बदल्नुहोस्", "✖ रद्द"]],
    ["hi", "9876543210 पर ₹199 भरें?", ["✔ पक्का करें", "✎ राशि बदलें", "✖ रद्द करें"]],
  ])("%s: one button message, ids are the callback data", (_lang, text, labels) => {
    const data = ["ok", "e:amount", "x"];
    const rows = [labels.map((l, i) => btn(l, data[i]!))];
    const r = renderMessage({ text, rows, opener: "Choose" });
    expect(r.choices).toEqual([]);
    expect(r.messages).toHaveLength(1);
    const m = replies(r.messages[0]);
    expect(m.body.text).toBe(text);
    expect(m.action.buttons.map((b) => b.reply.id)).toEqual(data);
    expect(m.action.buttons.map((b) => b.reply.title)).toEqual(labels.map((l) => cutLabel(l, 20)));
    validAll(r);
  });

  it("long and equal titles are cut to 20 with … and made unique, never numbered", () => {
    const r = renderMessage({
      text: "Which one?",
      rows: [
        [btn("Nepal Telecom Prepaid Recharge", "v:a"), btn("Nepal Telecom Prepaid Topup", "v:b")],
        [btn("1", "v:c")],
      ],
      opener: "Choose",
    });
    const titles = replies(r.messages[0]).action.buttons.map((b) => b.reply.title);
    expect(titles[0]).toBe("Nepal Telecom…");
    expect(titles[1]).toBe("Nepal Telecom… 2");
    expect(titles[2]).toBe("1");
    validAll(r);
  });

  it.each([
    ["en", "Your receipt line"],
    ["ne", "तपाईंको रसिदको पङ्क्ति"],
    ["hi", "आपकी रसीद की पंक्ति"],
  ])("%s: a text over 1024 goes ahead as text; the body is its last paragraph", (_lang, line) => {
    const receipt = Array.from({ length: 80 }, (_, i) => `${line} ${i + 1}`).join("\n");
    const question = "What next? / अब के गर्ने? / आगे क्या?";
    const text = `${receipt}\n\n${question}`;
    const r = renderMessage({ text, rows: [[btn("Menu", "m:menu")]], opener: "Choose" });
    expect(r.messages.map((m) => m.type)).toEqual(["text", "interactive"]);
    expect(r.messages[0]).toEqual({ type: "text", text: { body: receipt, preview_url: false } });
    expect(replies(r.messages[1]).body.text).toBe(question);
    validAll(r);
  });

  it("a last paragraph over 1024 gives the body as much of its end as fits, the rest ahead", () => {
    const text = Array.from({ length: 400 }, (_, i) => `शब्द${i}`).join(" ");
    const r = renderMessage({ text, rows: [[btn("OK", "ok")]], opener: "Choose" });
    validAll(r);
    expect(r.messages.length).toBe(2);
    const body = replies(r.messages[1]).body.text;
    expect(text.endsWith(body)).toBe(true);
    expect(textRead(r)).toBe(squeeze(text));
  });
});

describe("4-10 buttons: one list", () => {
  const operators = {
    en: ["Nepal Telecom", "Ncell Axiata Limited Prepaid Mobile", "Smart Telecom"],
    ne: ["नेपाल टेलिकम", "एनसेल आजियाटा लिमिटेड प्रिपेड", "स्मार्ट टेलिकम"],
    hi: ["जियो", "एयरटेल प्रीपेड मोबाइल रिचार्ज सेवा", "वोडाफोन आइडिया"],
  } as const;

  it.each(["en", "ne", "hi"] as const)(
    "%s: rows numbered, long titles cut with the label as description",
    (lang) => {
      const answers = operators[lang].map((l, i) => btn(l, `v:${i}`));
      const rows = [[answers[0]!, answers[1]!], [answers[2]!], NAV[lang]];
      const r = renderMessage({ text: "?", rows, opener: "छान्नुहोस् / Choose / चुनें" });
      expect(r.messages).toHaveLength(1);
      const m = list(r.messages[0]);
      expect(m.action.button.length).toBeLessThanOrEqual(20);
      expect(m.action.sections).toHaveLength(1);
      const listed = m.action.sections[0]!.rows;
      expect(listed.map((x) => x.id)).toEqual(["v:0", "v:1", "v:2", "bk", "x"]);
      expect(listed.map((x) => x.title.split(". ")[0])).toEqual(["1", "2", "3", "4", "5"]);
      expect(listed[0]).toEqual({ id: "v:0", title: `1. ${operators[lang][0]}` });
      expect(listed[1]!.title.endsWith("…")).toBe(true);
      expect(listed[1]!.description).toBe(operators[lang][1]);
      expect(r.choices.map((c) => [c.n, c.data])).toEqual([
        [1, "v:0"],
        [2, "v:1"],
        [3, "v:2"],
        [4, "bk"],
        [5, "x"],
      ]);
      validAll(r);
    },
  );

  it.each([
    ["en", ["Rs 100", "Rs 200", "Rs 500", "Rs 1,000"]],
    ["ne", ["रु 100", "रु 200", "रु 500", "रु 1,000"]],
    ["hi", ["₹100", "₹200", "₹500", "₹1,000"]],
    ["en", ["100", "200", "500", "1000"]],
    ["en", ["Pay due Rs 1,250", "Other amount", "Later", "Help"]],
  ])("%s: amount buttons are not numbered, so a typed 3 stays an amount", (lang, labels) => {
    const rows = [labels.map((l, i) => btn(l, `v:${i}`)), NAV[lang as "en"]];
    const r = renderMessage({ text: "Amount?", rows, opener: "Choose" });
    expect(r.choices).toEqual([]);
    expect(rowTitles(r.messages[0])).toEqual([
      ...labels,
      NAV[lang as "en"][0]!.label,
      NAV[lang as "en"][1]!.label,
    ]);
    expect(typedChoice("3", r.choices)).toBeNull();
    validAll(r);
  });

  it("numbered: false keeps rows unnumbered for a question that takes typed numbers", () => {
    const months = ["बैशाख", "जेठ", "असार", "साउन"].map((l, i) => btn(l, `v:${i + 1}`));
    const r = renderMessage({ text: "महिना?", rows: [months], opener: "छान्नुहोस्", numbered: false });
    expect(r.choices).toEqual([]);
    expect(rowTitles(r.messages[0])).toEqual(["बैशाख", "जेठ", "असार", "साउन"]);
  });

  it("unnumbered equal titles are made unique", () => {
    const rows = [
      ["Rs 100 · 1 GB", "Rs 100 · 1 GB", "Rs 100 · 1 GB", "Rs 200"].map((l, i) => btn(l, `v:${i}`)),
    ];
    const r = renderMessage({ text: "Pack?", rows, opener: "Choose" });
    expect(rowTitles(r.messages[0])).toEqual([
      "Rs 100 · 1 GB",
      "Rs 100 · 1 GB 2",
      "Rs 100 · 1 GB 3",
      "Rs 200",
    ]);
    validAll(r);
  });
});

describe("more than 10 buttons: several lists", () => {
  it.each(["en", "ne", "hi"] as const)(
    "%s: a paged choice keeps paging, Back and Cancel in the last list",
    (lang) => {
      const names = { en: "Office", ne: "कार्यालय", hi: "कार्यालय" }[lang];
      const answers = Array.from({ length: 8 }, (_, i) =>
        btn(`${names} ${String.fromCharCode(65 + i)}`, `v:${i}`),
      );
      const rows = [
        ...Array.from({ length: 4 }, (_, i) => answers.slice(i * 2, i * 2 + 2)),
        paging(0, 3),
        NAV[lang],
      ];
      const r = renderMessage({ text: "Which office?", rows, opener: "Choose" });
      expect(r.messages).toHaveLength(2);
      expect(list(r.messages[0]).body.text).toBe("Which office?");
      expect(list(r.messages[1]).body.text).toBe("…");
      expect(ids({ messages: [r.messages[1]!], choices: [] })).toEqual([
        "p:2",
        "p:0",
        "p:1",
        "bk",
        "x",
      ]);
      expect(rowTitles(r.messages[1])[0]).toBe("9. ‹");
      expect(r.choices).toHaveLength(13);
      expect(typedChoice("१३", r.choices)).toBe("x");
      validAll(r);
    },
  );

  it("25 answers and 5 navigation rows: no button lost, navigation last, numbering continues", () => {
    const answers = Array.from({ length: 25 }, (_, i) =>
      btn(`Plan ${String.fromCharCode(65 + i)}`, `v:${i}`),
    );
    const rows = [answers, paging(1, 4), NAV.en];
    const r = renderMessage({ text: "Plan?", rows, opener: "Choose" });
    expect(r.messages).toHaveLength(3);
    const last = ids({ messages: [r.messages.at(-1)!], choices: [] });
    expect(last.slice(-5)).toEqual(["p:0", "p:1", "p:2", "bk", "x"]);
    expect(ids(r).sort()).toEqual(
      rows
        .flat()
        .map((b) => b.data)
        .sort(),
    );
    expect(r.choices.map((c) => c.n)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(rowTitles(r.messages[1])[0]).toBe("11. Plan K");
    validAll(r);
  });
});

describe("fitTitles", () => {
  it("keeps what fits, cuts at a word in the last third, keeps emojis and Devanagari whole", () => {
    expect(fitTitles(["Back", "  Back  ", "", "  \n", "📱 Mobile top-up"], 20)).toEqual([
      "Back",
      "Back 2",
      "…",
      "… 2",
      "📱 Mobile top-up",
    ]);
    expect(fitTitles(["Broadband internet bill payment"], 20)).toEqual(["Broadband internet…"]);
    expect(fitTitles(["Supercalifragilisticexpialidocious"], 20)).toEqual(["Supercalifragilisti…"]);
    expect(fitTitles(["नेपाल विद्युत प्राधिकरण बिल भुक्तानी"], 20)).toEqual(["नेपाल विद्युत…"]);
    expect(fitTitles(["बिजली बिल का भुगतान करें अभी"], 24)).toEqual(["बिजली बिल का भुगतान…"]);
    expect(fitTitles(["👨‍👩‍👧‍👦👨‍👩‍👧‍👦 family"], 20)).toEqual(["👨‍👩‍👧‍👦…"]);
  });

  it("reads amounts the way the bot writes them", () => {
    for (const l of [
      "100",
      "Rs 100",
      "रु 500",
      "रू ५००",
      "₹1,000",
      " ₹199 ",
      "५००",
      "Pay due Rs 1,250",
      "बक्यौता रु 500 तिर्नुहोस्",
    ])
      expect(looksLikeAmount(l), l).toBe(true);
    for (const l of ["Nepal Telecom", "नेपाल टेलिकम", "जियो", "Rsync", "Data pack 1 GB"])
      expect(looksLikeAmount(l), l).toBe(false);
  });
});

describe("typedChoice", () => {
  const choices = [
    { n: 1, data: "v:a", label: "A" },
    { n: 3, data: "v:c", label: "C" },
    { n: 12, data: "x", label: "Cancel" },
  ];
  it("reads ASCII and Devanagari digits with spaces around", () => {
    expect(typedChoice("3", choices)).toBe("v:c");
    expect(typedChoice(" 3 ", choices)).toBe("v:c");
    expect(typedChoice("३", choices)).toBe("v:c");
    expect(typedChoice("१२", choices)).toBe("x");
    expect(typedChoice("03", choices)).toBe("v:c");
  });
  // Review s32-whatsapp, 8: the row reads "3. Wrong amount"; "3." typed was no choice.
  it("reads the number as the row shows it, with its point or bracket", () => {
    expect(typedChoice("3.", choices)).toBe("v:c");
    expect(typedChoice(" 3) ", choices)).toBe("v:c");
    expect(typedChoice("१२.", choices)).toBe("x");
  });
  it("anything else is not a choice", () => {
    for (const t of ["2", "0", "3.5", "3 GB", "three", "", "-1", "1234", "٣", "3..", ".", "3.)"])
      expect(typedChoice(t, choices), t).toBeNull();
    expect(typedChoice("1", [])).toBeNull();
  });
});

/* ------------------------------------------------------------------------------------------ *
 * Properties.                                                                                  *
 * ------------------------------------------------------------------------------------------ */

const WORDS = [
  "Nepal",
  "Telecom",
  "रिचार्ज",
  "भुक्तानी",
  "क्षेत्र",
  "भुगतान",
  "करें",
  "👍",
  "🇳🇵",
  "Rs",
  "₹199",
  "१००",
];
const word = fc.oneof(
  fc.constantFrom(...WORDS),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 }),
);
const label = fc.oneof(
  fc.array(word, { maxLength: 8 }).map((w) => w.join(" ")),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom("", "  ", "‹", "›", "1/3", "✖ रद्द करें", "Rs 100", "रु 500"),
);
const text = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 200 }),
  fc
    .array(fc.tuple(word, fc.constantFrom(" ", " ", " ", "\n", "\n\n")), {
      maxLength: 1500,
      size: "max",
    })
    .map((parts) => parts.map(([w, sep]) => w + sep).join("")),
  fc.string({ unit: "grapheme", minLength: 1000, maxLength: 9000, size: "max" }),
);
const input: fc.Arbitrary<RenderInput> = fc
  .tuple(
    text,
    fc.array(fc.tuple(label, fc.constantFrom("v:", "e:", "m:", "p:", "bk", "x", "ok")), {
      maxLength: 32,
      size: "max",
    }),
    fc.nat({ max: 5 }),
    label,
    fc.boolean(),
  )
  .map(([t, buttons, rowSize, opener, numbered]) => {
    // Unique callback data: a button id repeated in one message is not one WhatsApp accepts.
    const used = new Set<string>();
    const made = buttons.map(([l, kind], i) => {
      const fixed = !kind.endsWith(":") && !used.has(kind);
      used.add(kind);
      return btn(l, fixed ? kind : `${kind}${i}`);
    });
    const size = rowSize + 1;
    const rows = Array.from({ length: Math.ceil(made.length / size) }, (_, i) =>
      made.slice(i * size, i * size + size),
    );
    return { text: t, rows, opener, ...(numbered ? {} : { numbered: false }) };
  });

describe("properties", () => {
  it("fitted titles are within max, unique, non-blank, and cut between graphemes", () => {
    fc.assert(
      fc.property(
        fc.array(label, { maxLength: 30 }),
        fc.integer({ min: 4, max: 30 }),
        (labels, max) => {
          const titles = fitTitles(labels, max);
          expect(titles).toHaveLength(labels.length);
          expect(new Set(titles).size).toBe(titles.length);
          for (const t of titles) {
            expect(t.length).toBeLessThanOrEqual(max);
            expect(t.trim().length).toBeGreaterThan(0);
            expect(LONE_SURROGATE.test(t)).toBe(false);
          }
          for (const l of labels) {
            const one = l.replace(/\s+/gu, " ").trim();
            const kept = cutLabel(l, max).replace(/…$/u, "");
            if (one === "") continue;
            expect(one.startsWith(kept)).toBe(true);
            const bounds = new Set([0]);
            let at = 0;
            for (const g of graphemes(one)) {
              at += g.length;
              bounds.add(at);
            }
            expect(bounds.has(kept.length), `${one} -> ${kept}`).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("every message is valid, every button appears once, no text is lost, output is deterministic", () => {
    fc.assert(
      fc.property(input, (inp) => {
        const r = renderMessage(inp);
        validAll(r);
        const data = inp.rows.flat().map((b) => b.data);
        expect([...ids(r)].sort()).toEqual([...data].sort());
        if (inp.text.trim() !== "") expect(textRead(r)).toBe(squeeze(inp.text));
        expect(renderMessage(inp)).toEqual(r);
        const nav = data.filter((d) => d === "bk" || d === "x" || d.startsWith("p:"));
        // More than ten navigation buttons cannot share one list; the bot never sends more than five.
        if (data.length > 10 && nav.length <= 10) {
          const last = ids({ messages: [r.messages.at(-1)!], choices: [] });
          for (const d of nav) expect(last).toContain(d);
        }
      }),
      { numRuns: 250 },
    );
  });

  it("numbered rows round-trip through typedChoice; replies and amounts are never numbered", () => {
    fc.assert(
      fc.property(input, (inp) => {
        const r = renderMessage(inp);
        const buttons = inp.rows.flat();
        if (buttons.length <= 3 || inp.numbered === false) expect(r.choices).toEqual([]);
        r.choices.forEach((c, i) => {
          expect(c.n).toBe(i + 1);
          expect(typedChoice(String(c.n), r.choices)).toBe(c.data);
          const deva = String(c.n).replace(/\d/g, (d) => String.fromCodePoint(0x0966 + Number(d)));
          expect(typedChoice(` ${deva} `, r.choices)).toBe(c.data);
        });
        if (r.choices.length > 0) {
          expect(r.choices.map((c) => c.data)).toEqual(ids(r));
          const answers = buttons.filter(
            (b) => !(b.data === "bk" || b.data === "x" || b.data.startsWith("p:")),
          );
          for (const b of answers) expect(looksLikeAmount(b.label)).toBe(false);
          const titles = r.messages.flatMap((m) => (m.type === "interactive" ? rowTitles(m) : []));
          titles.forEach((t, i) => {
            expect(t.startsWith(`${i + 1}. `)).toBe(true);
          });
        }
      }),
      { numRuns: 250 },
    );
  });
});
