// Markup parsing and flood buckets of the Bot API emulator, as pure functions.
import { describe, expect, it } from "vitest";
import {
  EntityParseError,
  FloodControl,
  parseFormattedText,
} from "../../src/playground/emulator/index.ts";

describe("HTML parse mode", () => {
  it("turns tags into entities over the visible text", () => {
    expect(
      parseFormattedText(
        '<b>Paid</b> <i>Rs <u>100</u></i> <a href="https://x.test/r?a=1&amp;b=2">receipt</a>',
        "HTML",
      ),
    ).toEqual({
      text: "Paid Rs 100 receipt",
      entities: [
        { type: "bold", offset: 0, length: 4 },
        { type: "italic", offset: 5, length: 6 },
        { type: "underline", offset: 8, length: 3 },
        { type: "text_link", offset: 12, length: 7, url: "https://x.test/r?a=1&b=2" },
      ],
    });
  });

  it("decodes entities, keeps a bare ampersand and measures in UTF-16 units", () => {
    expect(parseFormattedText("&lt;b&gt; &quot;R&amp;D&quot; & &#2344; <b>😀</b>", "HTML")).toEqual(
      {
        text: '<b> "R&D" & न 😀',
        entities: [{ type: "bold", offset: 14, length: 2 }],
      },
    );
  });

  it("reads pre blocks with a language, spoilers and block quotes", () => {
    const parsed = parseFormattedText(
      '<pre><code class="language-json">{}</code></pre><tg-spoiler>x</tg-spoiler><span class="tg-spoiler">y</span><blockquote expandable>q</blockquote>',
      "HTML",
    );
    expect(parsed).toEqual({
      text: "{}xyq",
      entities: [
        { type: "pre", offset: 0, length: 2, language: "json" },
        { type: "spoiler", offset: 2, length: 1 },
        { type: "spoiler", offset: 3, length: 1 },
        { type: "expandable_blockquote", offset: 4, length: 1 },
      ],
    });
  });

  it("refuses what Telegram refuses", () => {
    const failures: [string, string][] = [
      ["a<br>b", 'Unsupported start tag "br" at byte offset 1'],
      ["<b>open", 'Can\'t find end tag corresponding to start tag "b"'],
      ["<b>x</i>", 'Unmatched end tag at byte offset 4, expected "</b>", found "</i>"'],
      ["x</b>", "Unexpected end tag at byte offset 1"],
      ["5 <7", "Can't find end of the tag starting at byte offset 2"],
      ['<span class="x">s</span>', 'Unsupported start tag "span" at byte offset 0'],
      ["नमस्ते <p>", 'Unsupported start tag "p" at byte offset 19'],
    ];
    for (const [input, message] of failures) {
      expect(() => parseFormattedText(input, "HTML"), input).toThrow(new EntityParseError(message));
    }
  });
});

describe("MarkdownV2 parse mode", () => {
  it("turns markers into entities and unescapes", () => {
    expect(
      parseFormattedText(
        "*Rs 100\\.00* _to_ __you__ ~old~ ||secret|| `code\\`` [link](https://x.test/a\\)b)",
        "MarkdownV2",
      ),
    ).toEqual({
      text: "Rs 100.00 to you old secret code` link",
      entities: [
        { type: "bold", offset: 0, length: 9 },
        { type: "italic", offset: 10, length: 2 },
        { type: "underline", offset: 13, length: 3 },
        { type: "strikethrough", offset: 17, length: 3 },
        { type: "spoiler", offset: 21, length: 6 },
        { type: "code", offset: 28, length: 5 },
        { type: "text_link", offset: 34, length: 4, url: "https://x.test/a)b" },
      ],
    });
  });

  it("reads pre blocks and block quotes", () => {
    expect(parseFormattedText("```ts\nlet a\n```\n>one\n>two", "MarkdownV2")).toEqual({
      text: "let a\n\none\ntwo",
      entities: [
        { type: "pre", offset: 0, length: 6, language: "ts" },
        { type: "blockquote", offset: 7, length: 7 },
      ],
    });
  });

  it("refuses unescaped reserved characters and unclosed entities", () => {
    expect(() => parseFormattedText("Total: Rs 100.", "MarkdownV2")).toThrow(
      "Character '.' is reserved and must be escaped with the preceding '\\'",
    );
    expect(() => parseFormattedText("a-b", "MarkdownV2")).toThrow("Character '-' is reserved");
    expect(() => parseFormattedText("*bold", "MarkdownV2")).toThrow(
      "Can't find end of the entity starting at byte offset 0",
    );
  });
});

describe("legacy Markdown parse mode", () => {
  it("knows bold, italic, code and links and leaves other characters alone", () => {
    expect(parseFormattedText("*Paid* Rs 100. _ok_ `x` [r](https://x.test)", "Markdown")).toEqual({
      text: "Paid Rs 100. ok x r",
      entities: [
        { type: "bold", offset: 0, length: 4 },
        { type: "italic", offset: 13, length: 2 },
        { type: "code", offset: 16, length: 1 },
        { type: "text_link", offset: 18, length: 1, url: "https://x.test" },
      ],
    });
  });
});

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
