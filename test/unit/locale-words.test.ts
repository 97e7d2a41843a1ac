import { describe, expect, it } from "vitest";
import { localeText } from "../support/locale-files.ts";

/**
 * Every message a Nepali or Hindi reader gets is in their language: no English word in the values
 * of the Nepali and Hindi strings (locales/ne.ftl, locales/hi.ftl and each category's own) outside the names people use as they are (operators, brands,
 * abbreviations printed on bills). Placeholders, /commands and examples of typed input are not words.
 */

/** Names written in Latin letters in Nepali and Hindi alike, as on the operators' own signs and bills. */
const ALLOWED = new Set([
  "NTC", // Nepal Telecom's brand
  "Ncell",
  "DTH", // the name of the TV service on every dish
  "SC", // the service connection number printed on an NEA bill
  "WhatsApp", // the app's name, as its users write it
  "Telegram", // the same
]);

/** Each message's value (continuation lines included), keyed by id, over every locale folder. */
function values(locale: string): Map<string, string> {
  const out = new Map<string, string>();
  let id: string | null = null;
  for (const line of localeText(locale).split(/\r?\n/)) {
    const start = /^([A-Za-z][\w-]*)\s*=(.*)$/.exec(line);
    if (start?.[1]) {
      id = start[1];
      out.set(id, start[2] ?? "");
    } else if (id && /^\s+\S/.test(line)) {
      out.set(id, `${out.get(id)}\n${line}`);
    } else {
      id = null;
    }
  }
  return out;
}

/**
 * Latin words of a message value, after placeholders ({ $x }), a selector's head and variant keys
 * ({ $n -> [one] … *[other] … }: the variants' text is checked) and /commands (after a space or
 * an opening bracket) are removed.
 */
function latinWords(value: string): string[] {
  const text = value
    .replace(/\{\s*[^{}]*?->/g, " ")
    .replace(/^\s*\*?\[[^\]]+\]/gm, " ")
    .replace(/\{[^{}]*\}/g, " ")
    .replace(/[{}]/g, " ")
    .replace(/(^|[\s(])\/[a-z_]+/g, " ");
  return [...text.matchAll(/[A-Za-z][A-Za-z'-]*/g)].map((m) => m[0]);
}

describe.each(["ne", "hi"])("the %s strings", (locale) => {
  const messages = values(locale);

  it("has messages to check", () => {
    expect(messages.size).toBeGreaterThan(100);
  });

  it("has no English word outside operator and brand names", () => {
    const found: string[] = [];
    for (const [id, value] of messages) {
      for (const word of latinWords(value)) if (!ALLOWED.has(word)) found.push(`${id}: ${word}`);
    }
    expect(found).toEqual([]);
  });
});

describe("the word finder", () => {
  it("finds English between Devanagari and ignores placeholders and commands", () => {
    expect(latinWords("कृपया { $amount } Please /recharge भेज्नुहोस् NTC")).toEqual(["Please", "NTC"]);
  });

  it("reads the variants of a plural, not its selector or keys", () => {
    expect(latinWords("({ $n ->\n    [one] { $n } खाता\n   *[other] { $n } accounts\n})")).toEqual([
      "accounts",
    ]);
  });
});
