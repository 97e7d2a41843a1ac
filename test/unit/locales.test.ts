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
    messages.push({ id: current.id, variables });
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
  "amount_format",
  "amount_grouping",
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
];
const catalog = createCatalog();

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
