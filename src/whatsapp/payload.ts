import { z } from "zod";
import type { WaInboundMessage, WaStatusEvent, WaWebhookEvents } from "./types.ts";

/**
 * Meta's webhook body (whatsapp-notes.md §1), read with zod. Lenient where Meta adds fields (zod
 * objects drop unknown keys; an unknown message type or a field other than "messages" is kept as
 * "other" or skipped), strict on what the product uses: a message without a wamid or a timestamp,
 * or a status of an unknown kind, is dropped rather than guessed at.
 */

/** Unix seconds: Meta sends them as strings of digits. */
const unixSeconds = z.union([
  z.number().int().nonnegative(),
  z
    .string()
    .regex(/^\d{1,12}$/)
    .transform(Number),
]);

const contactSchema = z.object({
  profile: z.object({ name: z.string().optional() }).optional(),
  wa_id: z.string().optional(),
  user_id: z.string().optional(),
});

/** A media message's own object: audio and stickers carry no caption, so are not read at all. */
const captioned = z.object({ caption: z.string().optional() }).optional();

/** What Meta sends as a file; a caption (image, video, document) is the words typed with it. */
const MEDIA = new Set(["image", "video", "document", "audio", "sticker"]);

const messageSchema = z.object({
  from: z.string().optional(),
  /** Some BSUID-only webhooks carry the sender's user id here instead of a phone. */
  from_user_id: z.string().optional(),
  id: z.string().min(1),
  timestamp: unixSeconds,
  type: z.string(),
  context: z.object({ from: z.string().optional(), id: z.string().optional() }).optional(),
  text: z.object({ body: z.string() }).optional(),
  interactive: z
    .object({
      type: z.string(),
      button_reply: z.object({ id: z.string(), title: z.string() }).optional(),
      list_reply: z
        .object({ id: z.string(), title: z.string(), description: z.string().optional() })
        .optional(),
    })
    .optional(),
  button: z.object({ text: z.string().optional(), payload: z.string().optional() }).optional(),
  system: z.object({ type: z.string().optional(), wa_id: z.string().optional() }).optional(),
  // Media: only the caption is read; the file itself never is (nothing is downloaded).
  image: captioned,
  video: captioned,
  document: captioned,
});

const statusSchema = z.object({
  id: z.string().min(1),
  status: z.enum(["sent", "delivered", "read", "failed"]),
  timestamp: unixSeconds,
  recipient_id: z.string(),
  errors: z
    .array(
      z.object({
        code: z.coerce.number().int(),
        title: z.string().optional(),
        message: z.string().optional(),
      }),
    )
    .optional(),
});

/** Arrays are read item by item: one item Meta shapes differently does not lose its neighbours. */
const items = z.array(z.unknown()).optional();

const valueSchema = z.object({
  metadata: z
    .object({ display_phone_number: z.string().optional(), phone_number_id: z.string().optional() })
    .optional(),
  contacts: items,
  messages: items,
  statuses: items,
});

const bodySchema = z.object({
  object: z.literal("whatsapp_business_account"),
  entry: z.array(
    z.object({
      id: z.string().optional(),
      changes: z.array(z.object({ field: z.string(), value: z.unknown() })).default([]),
    }),
  ),
});

type Contact = z.output<typeof contactSchema>;
type Message = z.output<typeof messageSchema>;

function parsedItems<T>(schema: z.ZodType<T>, list: unknown[] | undefined): T[] {
  const out: T[] = [];
  for (const item of list ?? []) {
    const r = schema.safeParse(item);
    if (r.success) out.push(r.data);
  }
  return out;
}

/**
 * What the customer sent: the text typed, the button or row tapped, a reaction, a welcome request,
 * a system notice, a file (with its caption, if any), or "other" (a location, a contact card...).
 */
function contentOf(
  m: Message,
): Pick<WaInboundMessage, "kind" | "text" | "replyId" | "systemType" | "changedTo"> {
  if (m.type === "text" && m.text) return { kind: "text", text: m.text.body };
  if (m.type === "reaction") return { kind: "reaction" };
  if (m.type === "request_welcome") return { kind: "welcome" };
  if (m.type === "system") {
    const out: ReturnType<typeof contentOf> = { kind: "system" };
    if (m.system?.type !== undefined) out.systemType = m.system.type;
    if (m.system?.wa_id !== undefined) out.changedTo = m.system.wa_id;
    return out;
  }
  if (MEDIA.has(m.type)) {
    const caption = (m.image ?? m.video ?? m.document)?.caption?.trim();
    return caption ? { kind: "media", text: caption } : { kind: "media" };
  }
  if (m.type === "interactive" && m.interactive) {
    const i = m.interactive;
    if (i.type === "button_reply" && i.button_reply)
      return { kind: "button_reply", text: i.button_reply.title, replyId: i.button_reply.id };
    if (i.type === "list_reply" && i.list_reply)
      return { kind: "list_reply", text: i.list_reply.title, replyId: i.list_reply.id };
  }
  if (m.type === "button" && m.button)
    return { kind: "quick_reply", text: m.button.text, replyId: m.button.payload };
  return { kind: "other" };
}

function inboundOf(m: Message, contacts: Contact[]): WaInboundMessage {
  // A contact belongs to the message whose sender it names; a lone contact is the sender's.
  const contact =
    contacts.find((c) => c.wa_id !== undefined && c.wa_id === m.from) ??
    contacts.find((c) => c.user_id !== undefined && c.user_id === m.from_user_id) ??
    (contacts.length === 1 ? contacts[0] : undefined);
  const waId = m.from ?? contact?.wa_id;
  const userId = contact?.user_id ?? m.from_user_id;
  const name = contact?.profile?.name;
  const out: WaInboundMessage = { wamid: m.id, timestamp: m.timestamp, ...contentOf(m) };
  if (waId !== undefined) out.waId = waId;
  if (userId !== undefined) out.userId = userId;
  if (name !== undefined) out.name = name;
  if (m.context?.id !== undefined) out.contextWamid = m.context.id;
  for (const k of ["text", "replyId", "systemType", "changedTo"] as const)
    if (out[k] === undefined) delete out[k];
  return out;
}

function statusOf(s: z.output<typeof statusSchema>): WaStatusEvent {
  const out: WaStatusEvent = {
    wamid: s.id,
    status: s.status,
    timestamp: s.timestamp,
    recipientId: s.recipient_id,
  };
  if (s.errors?.length) out.errors = s.errors;
  return out;
}

/**
 * The messages and statuses of a webhook body, over every entry and change; null when the body is
 * not a WhatsApp Business Account payload at all. A payload of other fields (account updates,
 * template reviews...) gives empty lists: the caller acknowledges it and moves on.
 */
export function normalizeWebhook(body: unknown): WaWebhookEvents | null {
  const parsed = bodySchema.safeParse(body);
  if (!parsed.success) return null;
  const events: WaWebhookEvents = { messages: [], statuses: [] };
  for (const entry of parsed.data.entry) {
    for (const change of entry.changes) {
      if (change.field !== "messages") continue;
      const value = valueSchema.safeParse(change.value);
      if (!value.success) continue;
      const contacts = parsedItems(contactSchema, value.data.contacts);
      for (const m of parsedItems(messageSchema, value.data.messages))
        events.messages.push(inboundOf(m, contacts));
      for (const s of parsedItems(statusSchema, value.data.statuses))
        events.statuses.push(statusOf(s));
    }
  }
  return events;
}
