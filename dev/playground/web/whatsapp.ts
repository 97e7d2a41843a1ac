/*
 * The playground's WhatsApp users: the page plays customers' phones through the WhatsApp Cloud API
 * stand-in (dev/whatsapp/), so the product gets signed webhooks exactly as from Meta and answers
 * through the Graph API; the chat shows what the stand-in accepted, as WhatsApp shows it (no
 * edits: every message stays as sent). The stand-in keeps only the business's messages, so the
 * customers' own ones sent from here are kept here, each placed after the business messages that
 * had arrived when it was sent (no clock comparisons: the product's clock may be a test's).
 *
 *   GET  /whatsapp/users                    -> {enabled: false} | {enabled: true, users:
 *                                              [{wa_id, name, label, phone}]}
 *   GET  /whatsapp/users/:waId/messages     -> {user, messages: WaMessageView[]}
 *   POST /whatsapp/users/:waId/messages     {text}        -> {wamid}: the customer writes
 *   POST /whatsapp/users/:waId/taps         {wamid, id}   -> {wamid}: the customer taps a reply
 *                                              button / list row / template quick reply `id` of
 *                                              business message `wamid` (400 if it has none)
 */
import type { Hono } from "hono";
import { z } from "zod";
import type { StandInMessage, WhatsAppStandIn } from "../../whatsapp/index.ts";
import { BadRequest, jsonBody, parse } from "./http.ts";
import { sendMessageBody } from "./views.ts";

/** The page's WhatsApp customers: the phone is their identity (no contact sharing). */
export const PLAYGROUND_WHATSAPP_USERS = [
  { waId: "9779841000001", name: "Sita" },
  { waId: "9779841000002", name: "Hari" },
] as const;

export interface WhatsAppUserView {
  wa_id: string;
  name: string;
  label: string;
  /** As WhatsApp prints it: "+977 9841000001". */
  phone: string;
}

interface ButtonView {
  id: string;
  title: string;
  description?: string;
}

export interface WaMessageView {
  id: string;
  from: "business" | "user";
  kind: StandInMessage["kind"];
  text: string;
  header: string | null;
  footer: string | null;
  /** Reply buttons (at most 3) or a template's quick replies. */
  buttons: ButtonView[];
  /** A list message: its opener's label and its sections of rows. */
  list: { button: string; sections: { title: string | null; rows: ButtonView[] }[] } | null;
  /** A call-to-action URL button. */
  url: { display_text: string; url: string } | null;
  template: { name: string; language: string } | null;
  /** A document message: the file's name and size (a receipt, a statement). */
  document: { filename: string; size: number } | null;
  /** A customer's tap quotes the business message tapped: its wamid and (the start of) its text. */
  reply_to: { id: string; text: string } | null;
  /** The business message's last delivery status (sent, delivered, read, failed). */
  status: StandInMessage["status"] | null;
  time: string;
}

export const waIdParam = z.string().regex(/^[1-9][0-9]{7,14}$/, "a phone in international digits");
export const waTapBody = z.strictObject({
  wamid: z.string().min(1).max(256),
  id: z.string().min(1).max(256),
});

/** The parts of a send's JSON the chat shows; anything else is left out, never trusted. */
const textPart = z.object({ text: z.string() }).partial().optional().catch(undefined);
const sentBody = z.object({
  interactive: z
    .object({
      header: z
        .object({ type: z.string(), text: z.string().optional() })
        .optional()
        .catch(undefined),
      footer: textPart,
      action: z
        .object({
          button: z.string().optional(),
          sections: z
            .array(
              z.object({
                title: z.string().optional(),
                rows: z.array(z.object({ id: z.string() })),
              }),
            )
            .optional(),
          parameters: z.object({ display_text: z.string(), url: z.string() }).optional(),
        })
        .optional()
        .catch(undefined),
    })
    .optional()
    .catch(undefined),
  template: z
    .object({ name: z.string(), language: z.object({ code: z.string() }) })
    .optional()
    .catch(undefined),
});

export function formatWaPhone(waId: string): string {
  return waId.startsWith("977") ? `+977 ${waId.slice(3)}` : `+${waId}`;
}

/** How the chat shows a message the business sent. */
export function businessView(m: StandInMessage): WaMessageView {
  const body = sentBody.safeParse(m.body).data ?? {};
  const action = body.interactive?.action;
  const byId = new Map(m.buttons.map((b) => [b.id, b]));
  // The rows by section as sent; without sections (never from a valid send) one of all rows.
  const sections = action?.sections?.map((s) => ({
    title: s.title ?? null,
    rows: s.rows.flatMap((r) => byId.get(r.id) ?? []),
  })) ?? [{ title: null, rows: m.buttons }];
  const list = m.kind === "list" ? { button: action?.button ?? "", sections } : null;
  return {
    id: m.wamid,
    from: "business",
    kind: m.kind,
    text: m.kind === "template" ? m.text.replace(/^\[template [^\]]*\]\s*/, "") : m.text,
    header: body.interactive?.header?.text ?? null,
    footer: body.interactive?.footer?.text ?? null,
    buttons: m.kind === "list" ? [] : m.buttons.map((b) => ({ ...b })),
    list,
    url: m.kind === "cta_url" && action?.parameters ? { ...action.parameters } : null,
    template: body.template
      ? { name: body.template.name, language: body.template.language.code }
      : null,
    document: m.document ? { filename: m.document.filename, size: m.document.bytes.length } : null,
    reply_to: null,
    status: m.status,
    time: new Date(m.at).toISOString(),
  };
}

interface Inbound {
  wamid: string;
  at: number;
  text: string;
  replyTo: { id: string; text: string } | null;
  /** How many business messages the chat had when it was sent. */
  after: number;
}

const MAX_PHONES = 200;
const MAX_PER_PHONE = 1000;

/** Mounts the WhatsApp routes on the playground API (after its guard and body limit). */
export function mountWhatsApp(app: Hono, standIn: WhatsAppStandIn | undefined): void {
  const demo = new Map(PLAYGROUND_WHATSAPP_USERS.map((u) => [u.waId as string, u.name as string]));
  const sent = new Map<string, Inbound[]>();
  const nameOf = (waId: string) => demo.get(waId) ?? `Customer ${formatWaPhone(waId)}`;
  const userView = (waId: string): WhatsAppUserView => ({
    wa_id: waId,
    name: nameOf(waId),
    label: "Customer (WhatsApp)",
    phone: formatWaPhone(waId),
  });

  function record(waId: string, entry: Inbound): void {
    const list = sent.get(waId) ?? [];
    if (!sent.has(waId)) {
      // The oldest phone goes first: a script writing from many phones cannot grow this forever.
      if (sent.size >= MAX_PHONES) sent.delete(sent.keys().next().value ?? "");
      sent.set(waId, list);
    }
    list.push(entry);
    if (list.length > MAX_PER_PHONE) list.shift();
  }

  function transcript(s: WhatsAppStandIn, waId: string): WaMessageView[] {
    const business = s.messagesTo(waId).map(businessView);
    const mine = sent.get(waId) ?? [];
    const out: WaMessageView[] = [];
    let j = 0;
    for (let i = 0; i <= business.length; i++) {
      for (; j < mine.length && (mine[j]?.after ?? 0) <= i; j++) {
        const m = mine[j];
        if (m) out.push(inboundView(m));
      }
      const b = business[i];
      if (b) out.push(b);
    }
    return out;
  }

  const need = (): WhatsAppStandIn => {
    if (!standIn) throw new BadRequest("no WhatsApp stand-in runs here (WHATSAPP_* is configured)");
    return standIn;
  };
  const waIdOf = (raw: string | undefined) => parse(waIdParam, raw, "invalid WhatsApp phone");

  app.get("/whatsapp/users", (c) =>
    c.json(
      standIn
        ? { enabled: true, users: PLAYGROUND_WHATSAPP_USERS.map((u) => userView(u.waId)) }
        : { enabled: false },
    ),
  );

  app.get("/whatsapp/users/:waId/messages", (c) => {
    const s = need();
    const waId = waIdOf(c.req.param("waId"));
    return c.json({ user: userView(waId), messages: transcript(s, waId) });
  });

  app.post("/whatsapp/users/:waId/messages", async (c) => {
    const s = need();
    const waId = waIdOf(c.req.param("waId"));
    const { text } = await jsonBody(c, sendMessageBody);
    const after = s.messagesTo(waId).length;
    const wamid = await s.userSends({ waId, name: nameOf(waId) }, text);
    record(waId, { wamid, at: Date.now(), text, replyTo: null, after });
    return c.json({ wamid });
  });

  app.post("/whatsapp/users/:waId/taps", async (c) => {
    const s = need();
    const waId = waIdOf(c.req.param("waId"));
    const body = await jsonBody(c, waTapBody);
    const messages = s.messagesTo(waId);
    const target = messages.find((m) => m.wamid === body.wamid);
    if (!target) throw new BadRequest("no such business message to this phone");
    const button = target.buttons.find((b) => b.id === body.id);
    if (!button) throw new BadRequest("that message has no button or row with this id");
    let wamid: string;
    try {
      wamid = await s.tap(waId, body.wamid, body.id);
    } catch (error) {
      throw new BadRequest(error instanceof Error ? error.message : "tap refused");
    }
    const text = button.description ? `${button.title}\n${button.description}` : button.title;
    const replyTo = { id: body.wamid, text: target.text.slice(0, 200) };
    record(waId, { wamid, at: Date.now(), text, replyTo, after: messages.length });
    return c.json({ wamid });
  });
}

function inboundView(m: Inbound): WaMessageView {
  return {
    id: m.wamid,
    from: "user",
    kind: "text",
    text: m.text,
    header: null,
    footer: null,
    buttons: [],
    list: null,
    url: null,
    template: null,
    document: null,
    reply_to: m.replyTo,
    status: null,
    time: new Date(m.at).toISOString(),
  };
}
