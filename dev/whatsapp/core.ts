// The stand-in's state: each phone's chat (the customer's messages and the business messages
// accepted), the 24-hour window, status callbacks, and the send faults. The Graph routes and the
// control surface both act through it.
import { randomBytes } from "node:crypto";
import { type CheckedSend, checkSend, readCallSchema } from "./checks.ts";
import { detailsOf, invalidParam, MetaError, titleOf } from "./errors.ts";
import type {
  StandInMedia,
  StandInMessage,
  StandInStatus,
  WhatsAppStandInOptions,
} from "./types.ts";
import { WebhookSender } from "./webhooks.ts";

const WINDOW_MS = 24 * 60 * 60 * 1000;

interface Phone {
  waId: string;
  name?: string;
  userId?: string;
  lastInboundAt?: number;
  closed: boolean;
  messages: StandInMessage[];
}

interface Known {
  seq: number;
  waId: string;
  inbound: boolean;
}

export interface SendAnswer {
  messaging_product: "whatsapp";
  contacts: { input: string; wa_id: string }[];
  messages: { id: string }[];
}

export const newWamid = () => `wamid.HBgM${randomBytes(24).toString("base64url")}`;

export class StandInCore {
  readonly sender: WebhookSender;
  readonly now: () => number;
  private readonly phones = new Map<string, Phone>();
  private readonly known = new Map<string, Known>();
  private readonly seqOf = new Map<StandInMessage, number>();
  private readonly bsuids = new Map<string, string>();
  /** Uploaded media by id (POST /media), for the document messages that name them. */
  private readonly media = new Map<string, StandInMedia>();
  private readonly statusLog = new Map<string, string[]>();
  private readonly sendFaults: { code: number; n: number; waId?: string }[] = [];
  private readonly statusFaults = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly listeners = new Set<() => void>();
  readonly reads: { messageId: string; typing: boolean; at: number }[] = [];
  private seq = 0;
  accepted = 0;
  closed = false;

  constructor(readonly opts: WhatsAppStandInOptions) {
    this.now = opts.now ?? Date.now;
    this.sender = new WebhookSender({
      appSecret: opts.appSecret,
      url: opts.webhookUrl,
      now: this.now,
      logger: opts.logger,
      retryDelaysMs: opts.retryDelaysMs ?? [50, 150, 400, 1000],
      timeoutMs: opts.webhookTimeoutMs ?? 5_000,
    });
  }

  phone(waId: string): Phone {
    let phone = this.phones.get(waId);
    if (!phone) {
      phone = { waId, closed: false, messages: [] };
      this.phones.set(waId, phone);
    }
    return phone;
  }

  messagesTo(waId: string): StandInMessage[] {
    return [...(this.phones.get(waId)?.messages ?? [])];
  }

  /** Position of a wamid in the one sequence all messages share (undefined when unknown). */
  seqOfWamid(wamid: string): number | undefined {
    return this.known.get(wamid)?.seq;
  }

  seqOfMessage(m: StandInMessage): number {
    return this.seqOf.get(m) ?? 0;
  }

  statuses(wamid: string): string[] {
    return [...(this.statusLog.get(wamid) ?? [])];
  }

  findMessage(wamid: string): StandInMessage | undefined {
    const known = this.known.get(wamid);
    if (!known || known.inbound) return undefined;
    return this.phones.get(known.waId)?.messages.find((m) => m.wamid === wamid);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }

  failNextSends(code: number, n: number, waId?: string): void {
    this.sendFaults.push({ code, n, waId });
  }

  failStatusFor(waId: string, code: number): void {
    this.statusFaults.set(waId, code);
  }

  omitUserIdOf(waId: string): void {
    delete this.phone(waId).userId;
  }

  // ---------------------------------------------------------------- the customer's side

  /** A customer message: opens the window, queues its webhook; returns its wamid. */
  inbound(
    user: { waId: string; name?: string; userId?: string },
    message: Record<string, unknown>,
  ): string {
    const phone = this.phone(user.waId);
    if (user.name !== undefined) phone.name = user.name;
    if (user.userId !== undefined) {
      phone.userId = user.userId;
      this.bsuids.set(user.userId, user.waId);
    }
    phone.lastInboundAt = this.now();
    phone.closed = false;
    const wamid = newWamid();
    this.known.set(wamid, { seq: ++this.seq, waId: user.waId, inbound: true });
    const contact = {
      profile: { name: phone.name ?? user.waId },
      wa_id: user.waId,
      ...(phone.userId ? { user_id: phone.userId } : {}),
    };
    const msg = { from: user.waId, id: wamid, timestamp: this.unixNow(), ...message };
    this.sender.enqueue(
      user.waId,
      "messages",
      this.envelope({ contacts: [contact], messages: [msg] }),
    );
    this.changed();
    return wamid;
  }

  closeWindow(waId: string): void {
    this.phone(waId).closed = true;
  }

  // ---------------------------------------------------------------- the Graph API

  /** POST /messages: a send or a "read" call; throws MetaError. */
  handle(raw: unknown): SendAnswer | { success: true } {
    if (raw !== null && typeof raw === "object" && "status" in raw) return this.markRead(raw);
    const checked = checkSend(raw);
    const { to, recipient } = checked.envelope;
    const waId = to ?? this.bsuids.get(recipient ?? "");
    if (!waId) throw invalidParam(`Param recipient: unknown business-scoped user id ${recipient}`);
    this.takeSendFault(waId);
    // Outside the window: refused at once (default), or accepted and then failed, as Meta also does.
    let windowFailure: number | undefined;
    if (checked.kind !== "template" && !this.windowOpen(waId)) {
      if (this.opts.windowRefusal !== "status") throw new MetaError(131047, detailsOf(131047));
      windowFailure = 131047;
    }
    const media = checked.kind === "document" ? this.mediaOf(checked) : undefined;
    const message = this.accept(waId, raw as Record<string, unknown>, checked, windowFailure);
    if (media) message.document = media;
    return {
      messaging_product: "whatsapp",
      contacts: [{ input: to ?? recipient ?? waId, wa_id: waId }],
      messages: [{ id: message.wamid }],
    };
  }

  /** Keeps an upload (checked by the route: type, size); its id for a document message. */
  upload(file: Omit<StandInMedia, "id">): { id: string } {
    const id = String(1_000_000_000_000_000 + this.media.size + 1);
    this.media.set(id, { id, ...file });
    return { id };
  }

  /** The media a document message names: an upload of ours (a link is not fetched). */
  private mediaOf(checked: CheckedSend): StandInMedia | undefined {
    const d = checked.envelope.document;
    if (!d?.id) return undefined;
    const media = this.media.get(d.id);
    if (!media) throw invalidParam(`Param document['id']: unknown media id ${d.id}`);
    return { ...media, ...(d.filename ? { filename: d.filename } : {}) };
  }

  private markRead(raw: object): { success: true } {
    const parsed = readCallSchema.safeParse(raw);
    if (!parsed.success) throw invalidParam(parsed.error.issues[0]?.message ?? "invalid read call");
    const known = this.known.get(parsed.data.message_id);
    if (!known?.inbound)
      throw invalidParam(`Param message_id: no inbound message ${parsed.data.message_id}`);
    this.reads.push({
      messageId: parsed.data.message_id,
      typing: !!parsed.data.typing_indicator,
      at: this.now(),
    });
    return { success: true };
  }

  private takeSendFault(waId: string): void {
    const fault = this.sendFaults.find((f) => f.n > 0 && (f.waId === undefined || f.waId === waId));
    if (!fault) return;
    fault.n--;
    throw new MetaError(fault.code, detailsOf(fault.code));
  }

  private windowOpen(waId: string): boolean {
    const phone = this.phones.get(waId);
    if (!phone || phone.closed || phone.lastInboundAt === undefined) return false;
    return this.now() - phone.lastInboundAt <= WINDOW_MS;
  }

  private accept(
    waId: string,
    raw: Record<string, unknown>,
    checked: CheckedSend,
    windowFailure?: number,
  ): StandInMessage {
    // The JSON as sent (not zod's output), minus who it went to.
    const { messaging_product: _p, to: _t, recipient: _r, ...body } = raw;
    const message: StandInMessage = {
      wamid: newWamid(),
      to: waId,
      at: this.now(),
      body,
      kind: checked.kind,
      text: checked.text,
      buttons: checked.buttons,
      status: "accepted",
    };
    const seq = ++this.seq;
    this.known.set(message.wamid, { seq, waId, inbound: false });
    this.seqOf.set(message, seq);
    this.phone(waId).messages.push(message);
    this.accepted++;
    const failCode = windowFailure ?? this.statusFaults.get(waId);
    if (windowFailure === undefined) this.statusFaults.delete(waId);
    const steps = statusSteps(windowFailure, failCode);
    this.opts.logger?.info(
      { to: waId, kind: message.kind, wamid: message.wamid },
      "stand-in: accepted",
    );
    this.scheduleStatuses(message, steps, failCode);
    this.changed();
    return message;
  }

  private scheduleStatuses(
    message: StandInMessage,
    steps: StandInStatus[],
    failCode?: number,
  ): void {
    const gap = this.opts.statusGapMs ?? 5;
    const next = (i: number) => {
      const step = steps[i];
      if (step === undefined || this.closed) return;
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        if (this.closed) return;
        this.emitStatus(message, step, failCode);
        next(i + 1);
      }, gap);
      this.timers.add(timer);
    };
    next(0);
  }

  private emitStatus(message: StandInMessage, status: StandInStatus, failCode?: number): void {
    message.status = status;
    const log = this.statusLog.get(message.wamid) ?? [];
    log.push(status);
    this.statusLog.set(message.wamid, log);
    const template = message.kind === "template";
    const entry = {
      id: message.wamid,
      status,
      timestamp: this.unixNow(),
      recipient_id: message.to,
      ...(status === "failed" && failCode !== undefined
        ? {
            errors: [
              {
                code: failCode,
                title: titleOf(failCode),
                message: titleOf(failCode),
                error_data: { details: detailsOf(failCode) },
              },
            ],
          }
        : {
            pricing: {
              billable: template,
              pricing_model: "PMP",
              category: template ? "utility" : "service",
              type: template ? "regular" : "free_customer_service",
            },
          }),
      ...(typeof message.body.biz_opaque_callback_data === "string"
        ? { biz_opaque_callback_data: message.body.biz_opaque_callback_data }
        : {}),
    };
    this.sender.enqueue(message.to, "statuses", this.envelope({ statuses: [entry] }));
    this.changed();
  }

  private envelope(value: Record<string, unknown>): unknown {
    return {
      object: "whatsapp_business_account",
      entry: [
        {
          id: this.opts.wabaId ?? "102290129340398",
          changes: [
            {
              field: "messages",
              value: {
                messaging_product: "whatsapp",
                metadata: {
                  display_phone_number: this.opts.displayPhoneNumber ?? "15550783881",
                  phone_number_id: this.opts.phoneNumberId,
                },
                ...value,
              },
            },
          ],
        },
      ],
    };
  }

  /** Resolves once every scheduled status is emitted and no webhook is queued or in flight. */
  async settled(): Promise<void> {
    for (;;) {
      await this.sender.settled();
      if (this.timers.size === 0 || this.closed) return;
      await new Promise((resolve) => setTimeout(resolve, this.opts.statusGapMs ?? 5));
    }
  }

  unixNow(): string {
    return String(Math.floor(this.now() / 1000));
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.sender.close();
    this.changed();
  }
}

/** A window refusal fails at once (no `sent`); a failStatusFor fault after `sent`. */
function statusSteps(windowFailure?: number, failCode?: number): StandInStatus[] {
  if (windowFailure !== undefined) return ["failed"];
  return failCode === undefined ? ["sent", "delivered", "read"] : ["sent", "failed"];
}
