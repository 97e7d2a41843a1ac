import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  CATEGORIES,
  createCatalog,
  FAMILY_PREFIXES,
  NEPALI_MONTHS,
  type RuleError,
} from "../../src/catalog/index.ts";
import { CATEGORY_MODULES } from "../../src/categories/index.ts";
import { ORDER_STATUSES } from "../../src/orders/model.ts";
import { folderName, LOCALE_FOLDERS, localeFile, localeText } from "../support/locale-files.ts";

/**
 * The three languages carry the same messages with the same variables, and every key the code
 * asks for exists. A language is its file in locales/ and in each category's own locales/ folder,
 * loaded together (test/support/locale-files.ts). Literal keys are found in the sources; keys
 * built from a template are checked by enumerating where their variable part comes from (a new
 * template needs an entry in TEMPLATES).
 */

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const LOCALES = ["en", "ne", "hi"] as const;

interface Message {
  id: string;
  variables: string[];
  /** The value as written (continuation lines included). */
  body: string;
}

/** Messages of a Fluent file: an id at the start of a line, its value up to the next unindented line. */
function parseFtl(text: string): { messages: Message[]; duplicates: string[] } {
  const messages: Message[] = [];
  const seen = new Set<string>();
  const duplicates: string[] = [];
  let current: { id: string; body: string } | null = null;
  const flush = () => {
    if (!current) return;
    const variables = [
      ...new Set([...current.body.matchAll(/\$([A-Za-z][\w-]*)/g)].map((m) => m[1]!)),
    ].sort();
    messages.push({ id: current.id, variables, body: current.body });
    current = null;
  };
  for (const line of text.split(/\r?\n/)) {
    const start = /^([A-Za-z][\w-]*)\s*=(.*)$/.exec(line);
    if (start) {
      flush();
      const id = start[1]!;
      if (seen.has(id)) duplicates.push(id);
      seen.add(id);
      current = { id, body: start[2] ?? "" };
    } else if (current && /^\s+\S/.test(line)) {
      current.body += `\n${line}`;
    } else {
      flush();
    }
  }
  flush();
  return { messages, duplicates };
}

// Each language as the chat loads it: the shared locales/ then every category's own folder.
const files = Object.fromEntries(LOCALES.map((l) => [l, parseFtl(localeText(l))])) as Record<
  (typeof LOCALES)[number],
  ReturnType<typeof parseFtl>
>;
const keys = (l: (typeof LOCALES)[number]) => files[l].messages.map((m) => m.id).sort();
const enKeys = new Set(keys("en"));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

const sources = [
  ...sourceFiles(join(ROOT, "src")),
  ...sourceFiles(join(ROOT, "conversations")),
].map((path) => ({
  path: path.slice(ROOT.length),
  text: readFileSync(path, "utf8"),
}));

const KEY = `([a-z][a-z0-9]*(?:-[a-z0-9]+)+)`;
/** `t("key")`, `ctx.t("key")`, `this.t("key")`, `translator(...)("key")` and `i18n.t(locale, "key")`. */
const LITERAL_PATTERNS = [
  new RegExp(`(?:\\bt|\\))\\(\\s*["']${KEY}["']`, "g"),
  new RegExp(`\\.t\\(\\s*[\\w.]+\\s*,\\s*["']${KEY}["']`, "g"),
];
/** The same calls with a template literal: the static text before the first `${`. */
const TEMPLATE_PATTERN = /(?:\bt|\))\(\s*`([^`$]*)\$\{/g;

// Every RuleError code; the type check below fails when a code is added to the catalogue.
const RULE_CODES = [
  "empty",
  "not_digits",
  "length",
  "leading_zero",
  "trunk_zero",
  "india_prefix",
  "phone_mobile_length",
  "phone_landline_length",
  "prefix",
  "retired_operator",
  "india_number",
  "foreign_number",
  "amount_format",
  "amount_grouping",
  "amount_currency",
  "amount_below",
  "amount_above",
  "month_range",
  "too_long",
] as const satisfies readonly RuleError["code"][];
type MissingRuleCode = Exclude<RuleError["code"], (typeof RULE_CODES)[number]>;
const allRuleCodes: [MissingRuleCode] extends [never] ? true : never = true;

const COMMANDS = [
  "start",
  "recharge",
  "status",
  "history",
  "language",
  "help",
  "cancel",
  "balance",
  "saved",
  "statement",
];
const catalog = createCatalog();

/**
 * The placeables of a Fluent value: variables (`$name`), message and term references and
 * functions, wherever they stand (a selector, a variant's text); the text and the variant keys
 * around them are not placeables ("[one] { $n } account" has the one placeable `$n`).
 */
function placeables(value: string): string[] {
  const found = new Set<string>();
  const expression = (inner: string) => {
    const arrow = inner.indexOf("->");
    const head = (arrow < 0 ? inner : inner.slice(0, arrow)).replace(/"[^"]*"/g, " ");
    for (const m of head.matchAll(/(\$?-?[A-Za-z][\w-]*)\s*(\()?/g)) {
      // A named argument (`minimumFractionDigits: 2`) is no placeable.
      if (!m[1]!.startsWith("$") && head.slice(m.index + m[0].length).startsWith(":")) continue;
      found.add(m[2] ? `${m[1]}()` : m[1]!);
    }
    if (arrow >= 0) text(inner.slice(arrow + 2).replace(/\*?\[[^\]]*\]/g, " "));
  };
  // The text around placeables: every outermost { … } is one.
  const text = (t: string) => {
    let depth = 0;
    let start = 0;
    for (let i = 0; i < t.length; i++) {
      if (t[i] === "{" && depth++ === 0) start = i + 1;
      else if (t[i] === "}" && depth > 0 && --depth === 0) expression(t.slice(start, i));
    }
  };
  text(value);
  return [...found].sort();
}

/** Each key present in every language whose placeables differ between them, with what each uses. */
function placeableDisagreements(byLocale: Readonly<Record<string, readonly Message[]>>): string[] {
  const [first, ...others] = Object.keys(byLocale);
  const maps = Object.fromEntries(
    Object.entries(byLocale).map(([l, ms]) => [l, new Map(ms.map((m) => [m.id, m.body]))]),
  );
  const out: string[] = [];
  for (const [id, body] of maps[first!]!) {
    if (others.some((l) => !maps[l]!.has(id))) continue;
    const sets = Object.keys(maps).map(
      (l) => `${l}: ${placeables(maps[l]!.get(id) ?? body).join(" ")}`,
    );
    if (new Set(sets.map((s) => s.slice(s.indexOf(":")))).size > 1)
      out.push(`${id} (${sets.join("; ")})`);
  }
  return out;
}

/** Template prefix -> every key it can build. */
const TEMPLATES: Record<string, () => string[]> = {
  "status-": () => ORDER_STATUSES.map((s) => `status-${s}`),
  // /history names an order's category by its menu label.
  "menu-": () => CATEGORIES.map((c) => `menu-${c}`),
  "err-": () => RULE_CODES.map((c) => `err-${c.replace(/_/g, "-")}`),
  "cmd-": () => COMMANDS.map((c) => `cmd-${c}`),
  "datapack-product-": () =>
    catalog.byCategory("datapack").map((o) => `datapack-product-${o.product ?? "data"}`),
  "datapack-family-": () => Object.keys(FAMILY_PREFIXES).map((f) => `datapack-family-${f}`),
  "bill-month-": () => NEPALI_MONTHS.map((_, i) => `bill-month-${i + 1}`),
  "india-kind-": () => catalog.byCategory("india").map((o) => `india-kind-${o.india}`),
};

describe("locale files", () => {
  it("parse into messages, with no key twice in a file", () => {
    for (const l of LOCALES) {
      expect(files[l].messages.length, l).toBeGreaterThan(50);
      expect(files[l].duplicates, l).toEqual([]);
    }
  });

  it("have exactly the same keys in English, Nepali and Hindi", () => {
    expect(keys("ne")).toEqual(keys("en"));
    expect(keys("hi")).toEqual(keys("en"));
  });

  it("have the same keys in every language within each folder (a category's own too)", () => {
    // locales/ and the eight built-in categories' folders.
    expect(LOCALE_FOLDERS.length).toBeGreaterThan(CATEGORY_MODULES.length);
    for (const dir of LOCALE_FOLDERS) {
      const ids = (l: string) =>
        parseFtl(localeFile(dir, l))
          .messages.map((m) => m.id)
          .sort();
      expect(ids("en").length, folderName(dir)).toBeGreaterThan(0);
      expect(ids("ne"), folderName(dir)).toEqual(ids("en"));
      expect(ids("hi"), folderName(dir)).toEqual(ids("en"));
    }
  });

  it("use the same variables in every translation of a message", () => {
    const vars = (l: (typeof LOCALES)[number]) =>
      Object.fromEntries(files[l].messages.map((m) => [m.id, m.variables.join(",")]));
    expect(vars("ne")).toEqual(vars("en"));
    expect(vars("hi")).toEqual(vars("en"));
  });

  it("use the same placeables in every language of a key, in each folder and as loaded", () => {
    const all = placeableDisagreements(
      Object.fromEntries(LOCALES.map((l) => [l, files[l].messages])),
    );
    expect(all).toEqual([]);
    for (const dir of LOCALE_FOLDERS) {
      const byLocale = Object.fromEntries(
        LOCALES.map((l) => [l, parseFtl(localeFile(dir, l)).messages]),
      );
      expect(placeableDisagreements(byLocale), folderName(dir)).toEqual([]);
    }
  });

  it("contain every key the code uses literally", () => {
    const used = new Map<string, string>();
    for (const { path, text } of sources) {
      for (const pattern of LITERAL_PATTERNS) {
        for (const m of text.matchAll(pattern)) used.set(m[1]!, path);
      }
    }
    // The scan finds the keys it should (a broken pattern would find nothing and pass).
    expect(used.get("start-welcome")).toBe("conversations/start/command.ts");
    expect(used.get("confirm-title")).toBe("src/bot/flow/checkout.ts");
    expect(used.get("language-name")).toBe("conversations/language/command.ts");
    const missing = [...used]
      .filter(([key]) => !enKeys.has(key))
      .map(([key, path]) => `${key} (${path})`);
    expect(missing).toEqual([]);
  });

  it("contain every category module's menu label", () => {
    const labels = CATEGORY_MODULES.map((m) => m.menu.labelKey);
    expect(labels).toHaveLength(CATEGORIES.length);
    expect(labels.filter((key) => !enKeys.has(key))).toEqual([]);
  });

  it("contain every key the code builds from a template", () => {
    expect(allRuleCodes).toBe(true);
    const prefixes = new Map<string, string>();
    for (const { path, text } of sources) {
      for (const m of text.matchAll(TEMPLATE_PATTERN)) prefixes.set(m[1]!, path);
    }
    expect([...prefixes.keys()]).toEqual(expect.arrayContaining(["status-", "err-", "cmd-"]));
    const unknown = [...prefixes]
      .filter(([p]) => !(p in TEMPLATES))
      .map(([p, path]) => `${p}… (${path})`);
    expect(unknown, "add these template keys to TEMPLATES in this test").toEqual([]);
    const missing = [...prefixes.keys()].flatMap((p) =>
      (TEMPLATES[p]?.() ?? []).filter((k) => !enKeys.has(k)),
    );
    expect(missing).toEqual([]);
  });
});

describe("the placeable check", () => {
  const ftl = (text: string) => parseFtl(text).messages;

  it("finds a key whose translation names another variable", () => {
    const found = placeableDisagreements({
      en: ftl("a-key = Sent to { $number }.\nsame = { $n } ok"),
      ne: ftl("a-key = { $phone } मा पठाइयो।\nsame = { $n } ठीक"),
      hi: ftl("a-key = { $number } पर भेजा।\nsame = { $n } ठीक"),
    });
    expect(found).toEqual(["a-key (en: $number; ne: $phone; hi: $number)"]);
  });

  it("reads selectors, variants, references and functions, not the text around them", () => {
    expect(
      placeables(
        "{ $n ->\n    [one] { $n } account of { -brand }\n   *[other] { NUMBER($n, minimumFractionDigits: 2) } { other-msg }\n}",
      ),
    ).toEqual(["$n", "-brand", "NUMBER()", "other-msg"]);
    expect(placeables("No placeable [one] here")).toEqual([]);
  });

  it("skips a key missing in a language (the same-keys check reports it)", () => {
    expect(
      placeableDisagreements({
        en: ftl("x = { $a }"),
        ne: ftl("y = { $b }"),
        hi: ftl("x = { $c }"),
      }),
    ).toEqual([]);
  });
});
