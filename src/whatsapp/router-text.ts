import { typedCommands } from "./command-words.ts";

/** The words of a message the router sends: a template's parameter, buttons, link lines. */

/** A keyboard's callback buttons, row by row (the router's RenderInput rows). */
export type ButtonRows = { label: string; data: string }[][];

/**
 * Meta: a template parameter has no newline or tab and at most 4 spaces in a row. Its words name
 * the words to type, as every WhatsApp text does (also when rendered again in another language).
 */
export function templateText(text: string): string {
  const flat = typedCommands(text)
    .split(/\n+/)
    .map((l) => l.trim())
    .filter(Boolean)
    .join(" · ")
    .replace(/[\t ]{2,}/g, " ");
  return flat.length > 900 ? `${flat.slice(0, 899)}…` : flat;
}

/** The inline keyboard's callback buttons of a reply_markup (a reply keyboard has no place here). */
export function rowsOf(markup: unknown): ButtonRows {
  const rows = (markup as { inline_keyboard?: unknown } | undefined)?.inline_keyboard;
  if (!Array.isArray(rows)) return [];
  return rows
    .map((row: unknown) =>
      (Array.isArray(row) ? row : []).flatMap((b: { text?: unknown; callback_data?: unknown }) =>
        typeof b.callback_data === "string" && typeof b.text === "string"
          ? [{ label: b.text, data: b.callback_data }]
          : [],
      ),
    )
    .filter((r) => r.length > 0);
}

/**
 * A text with its keyboard's link buttons (Khalti's "Pay with Khalti") written under it: WhatsApp's
 * reply buttons and lists carry no URL, and a link in the text is tappable there.
 */
export function withLinks(text: string, markup: unknown): string {
  const rows = (markup as { inline_keyboard?: unknown } | undefined)?.inline_keyboard;
  if (!Array.isArray(rows)) return text;
  const links = rows
    .flatMap((row: unknown) => (Array.isArray(row) ? row : []))
    .filter(
      (b: { text?: unknown; url?: unknown }) =>
        typeof b.url === "string" && typeof b.text === "string",
    )
    .map((b: { text: string; url: string }) => `${b.text}: ${b.url}`);
  return links.length > 0 ? `${text}\n\n${links.join("\n")}` : text;
}
