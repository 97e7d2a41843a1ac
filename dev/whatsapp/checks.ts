// What Meta accepts on POST /{phone-number-id}/messages, written from its documentation
// (../../../shared/spec/whatsapp-notes.md §2), NOT from the product's builders: a product that
// breaks a limit fails here. Lengths are JavaScript string lengths (UTF-16 units, so an emoji
// outside the BMP counts 2: stricter than Meta's characters, never looser). Objects are strict:
// Meta refuses unknown keys ("Unexpected key").
import { z } from "zod";
import { invalidParam } from "./errors.ts";
import type { StandInButton, StandInKind } from "./types.ts";

const str = (min: number, max: number) => z.string().min(min).max(max);
const textObj = (max: number) => z.strictObject({ text: str(1, max) });

const header = z.union([
  z.strictObject({ type: z.literal("text"), text: str(1, 60) }),
  z.strictObject({
    type: z.enum(["image", "video", "document"]),
    image: z.looseObject({}).optional(),
    video: z.looseObject({}).optional(),
    document: z.looseObject({}).optional(),
  }),
]);

const replyButton = z.strictObject({
  type: z.literal("reply"),
  reply: z.strictObject({ id: str(1, 256), title: str(1, 20) }),
});
const listRow = z.strictObject({
  id: str(1, 200),
  title: str(1, 24),
  description: str(0, 72).optional(),
});
const section = z.strictObject({
  title: str(1, 24).optional(),
  rows: z.array(listRow).min(1).max(10),
});

const interactive = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("button"),
    header: header.optional(),
    body: textObj(1024),
    footer: textObj(60).optional(),
    action: z.strictObject({ buttons: z.array(replyButton).min(1).max(3) }),
  }),
  z.strictObject({
    type: z.literal("list"),
    header: z.strictObject({ type: z.literal("text"), text: str(1, 60) }).optional(),
    body: textObj(1024),
    footer: textObj(60).optional(),
    action: z.strictObject({ button: str(1, 20), sections: z.array(section).min(1).max(10) }),
  }),
  z.strictObject({
    type: z.literal("cta_url"),
    header: header.optional(),
    body: textObj(1024),
    footer: textObj(60).optional(),
    action: z.strictObject({
      name: z.literal("cta_url"),
      parameters: z.strictObject({
        display_text: str(1, 20),
        url: z.url({ protocol: /^https?$/ }),
      }),
    }),
  }),
]);

const textParam = z.strictObject({
  type: z.literal("text"),
  text: z.string().min(1),
  parameter_name: z.string().optional(),
});
const otherParam = z.looseObject({
  type: z.enum(["currency", "date_time", "image", "document", "video"]),
});
const component = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("body"),
    parameters: z.array(z.union([textParam, otherParam])),
  }),
  z.strictObject({
    type: z.literal("header"),
    parameters: z.array(z.union([textParam, otherParam])),
  }),
  z.strictObject({
    type: z.literal("button"),
    sub_type: z.enum(["quick_reply", "url", "copy_code"]),
    index: z.union([z.string().regex(/^\d$/), z.number().int().min(0).max(9)]),
    parameters: z.array(
      z.union([
        z.strictObject({ type: z.literal("payload"), payload: str(1, 256) }),
        z.strictObject({ type: z.literal("text"), text: z.string().min(1) }),
        z.strictObject({ type: z.literal("coupon_code"), coupon_code: z.string().min(1) }),
      ]),
    ),
  }),
]);
const template = z.strictObject({
  name: z.string().regex(/^[a-z0-9_]{1,512}$/, "lowercase letters, digits and underscores"),
  language: z.strictObject({
    code: z.string().regex(/^[a-z]{2,3}(_[A-Z]{2})?$/),
    policy: z.literal("deterministic").optional(),
  }),
  components: z.array(component).optional(),
});

/** A media message's object: an uploaded media id or a link, exactly one (Meta's media messages). */
const document = z.strictObject({
  id: z.string().min(1).optional(),
  link: z.url({ protocol: /^https?$/ }).optional(),
  caption: str(1, 1024).optional(),
  filename: str(1, 240).optional(),
});

/** What a media upload may be, as Meta lists the document types (a PDF, text, office files). */
export const DOCUMENT_MIME_TYPES = new Set([
  "application/pdf",
  "text/plain",
  "application/vnd.ms-excel",
  "application/msword",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
]);
/** Meta's limit for a document: 100 MB. */
export const MAX_DOCUMENT_BYTES = 100 * 1024 * 1024;

const MESSAGE_TYPES = ["text", "interactive", "template", "document"] as const;
const envelope = z.strictObject({
  messaging_product: z.literal("whatsapp"),
  recipient_type: z.literal("individual").optional(),
  to: z
    .string()
    .regex(/^\d{8,15}$/, "international digits without +")
    .optional(),
  recipient: z.string().min(1).optional(),
  type: z.enum(MESSAGE_TYPES, "unknown or unsupported message type").default("text"),
  context: z.strictObject({ message_id: z.string().min(1) }).optional(),
  biz_opaque_callback_data: str(1, 512).optional(),
  text: z.strictObject({ body: str(1, 4096), preview_url: z.boolean().optional() }).optional(),
  interactive: interactive.optional(),
  template: template.optional(),
  document: document.optional(),
});
type Envelope = z.infer<typeof envelope>;

export const readCallSchema = z.strictObject({
  messaging_product: z.literal("whatsapp"),
  status: z.literal("read"),
  message_id: z.string().min(1),
  typing_indicator: z.strictObject({ type: z.literal("text") }).optional(),
});

export interface CheckedSend {
  envelope: Envelope;
  kind: StandInKind;
  text: string;
  buttons: StandInButton[];
}

/** Checks one send; throws MetaError 100 naming the first breach. */
export function checkSend(raw: unknown): CheckedSend {
  const parsed = envelope.safeParse(raw);
  if (!parsed.success) throw invalidParam(describe(parsed.error));
  const env = parsed.data;
  if ((env.to === undefined) === (env.recipient === undefined))
    throw invalidParam("exactly one of `to` and `recipient` is required");
  for (const other of MESSAGE_TYPES)
    if (other !== env.type && env[other] !== undefined)
      throw invalidParam(`Param ${other} is not allowed for type ${env.type}`);
  if (env.type === "text") {
    if (!env.text) throw invalidParam("Param text['body'] is required");
    return { envelope: env, kind: "text", text: env.text.body, buttons: [] };
  }
  if (env.type === "interactive") {
    if (!env.interactive) throw invalidParam("Param interactive is required");
    return { envelope: env, ...checkInteractive(env.interactive) };
  }
  if (env.type === "document") {
    const d = env.document;
    if (!d) throw invalidParam("Param document is required");
    if ((d.id === undefined) === (d.link === undefined))
      throw invalidParam("Param document: exactly one of `id` and `link` is required");
    return { envelope: env, kind: "document", text: d.caption ?? "", buttons: [] };
  }
  if (!env.template) throw invalidParam("Param template is required");
  return { envelope: env, ...checkTemplate(env.template) };
}

function checkInteractive(i: z.infer<typeof interactive>): Omit<CheckedSend, "envelope"> {
  if (i.type === "button") {
    const buttons = i.action.buttons.map((b) => ({ id: b.reply.id, title: b.reply.title }));
    unique(
      buttons.map((b) => b.id),
      "button id",
    );
    unique(
      buttons.map((b) => b.title),
      "button title",
    );
    return { kind: "button", text: i.body.text, buttons };
  }
  if (i.type === "cta_url") return { kind: "cta_url", text: i.body.text, buttons: [] };
  const { sections } = i.action;
  if (sections.length > 1 && sections.some((s) => !s.title))
    throw invalidParam("a section title is required when there is more than one section");
  const rows = sections.flatMap((s) => s.rows);
  if (rows.length > 10)
    throw invalidParam(`a list has at most 10 rows in total, got ${rows.length}`);
  unique(
    rows.map((r) => r.id),
    "row id",
  );
  const buttons = rows.map((r) => ({
    id: r.id,
    title: r.title,
    ...(r.description ? { description: r.description } : {}),
  }));
  return { kind: "list", text: i.body.text, buttons };
}

function checkTemplate(t: z.infer<typeof template>): Omit<CheckedSend, "envelope"> {
  const params: string[] = [];
  const buttons: StandInButton[] = [];
  for (const c of t.components ?? []) {
    for (const p of c.parameters) {
      if (p.type !== "text") {
        if (p.type === "payload" && "payload" in p)
          buttons.push({ id: p.payload, title: p.payload });
        continue;
      }
      const text = (p as { text: string }).text;
      // Meta's rule for template parameters, in its own words.
      if (/[\n\t]/.test(text) || / {5,}/.test(text))
        throw invalidParam(
          "Param text cannot have new-line/tab characters or more than 4 consecutive spaces",
        );
      if (c.type !== "button") params.push(text);
    }
  }
  const text = `[template ${t.name}/${t.language.code}] ${params.join(" | ")}`.trimEnd();
  return { kind: "template", text, buttons };
}

function unique(values: string[], what: string): void {
  const seen = new Set<string>();
  for (const v of values) {
    if (seen.has(v)) throw invalidParam(`${what} must be unique: "${v}" appears twice`);
    seen.add(v);
  }
}

function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "Invalid parameter";
  const path = issue.path
    .map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `['${String(p)}']`))
    .join("");
  return path ? `Param ${path}: ${issue.message}` : issue.message;
}
