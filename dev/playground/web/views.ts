// What the playground's JSON API shows: the emulator's transcript and the sandbox's wallet and
// webhook deliveries, reshaped into the documented, snake_case wire format. Pure functions.
import { z } from "zod";
import type { Role } from "../../../src/bot/deps.ts";
import { formatRupees } from "../../../src/money.ts";
import type { Delivery } from "../../sandbox/index.ts";
import type { EmulatorEvent, TranscriptEntry } from "../emulator/index.ts";

// ---------------------------------------------------------------- request bodies

export const userIdParam = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const sendMessageBody = z.strictObject({
  text: z
    .string()
    .max(4096)
    .refine((t) => t.trim() !== "", "a message needs some text"),
});

/** Each demo user's phone number (international digits): +977 98000 and the user's id. */
export const playgroundPhone = (id: number): string => `97798000${String(id).padStart(5, "0")}`;

/** Shares the user's own contact (a request_contact button); the phone defaults to the demo one. */
export const shareContactBody = z.strictObject({
  phone_number: z
    .string()
    .regex(/^\+?[0-9]{8,15}$/, "international digits, optionally with +")
    .optional(),
});

export const pressCallbackBody = z.strictObject({
  message_id: z.number().int().positive(),
  data: z.string().min(1).max(64),
});

// ---------------------------------------------------------------- users

export interface PlaygroundUser {
  id: number;
  name: string;
  role: Role;
  /** What the user switcher shows under the name ("Customer", "Agent" ...). */
  label: string;
}

export interface CommandView {
  command: string;
  description: string;
}

// ---------------------------------------------------------------- messages

interface ButtonView {
  text: string;
  callback_data?: string;
  url?: string;
}

export interface MessageView {
  id: number;
  from: "bot" | "user";
  kind: TranscriptEntry["kind"];
  text: string;
  /** Telegram entities (bold, bot_command ...), offsets in UTF-16 code units. */
  entities?: { type: string; offset: number; length: number; url?: string }[];
  inline_keyboard: ButtonView[][] | null;
  /** This message brought up a reply keyboard (button labels), or took it away. */
  reply_keyboard?: string[][];
  remove_keyboard?: true;
  emoji?: string;
  edited: boolean;
  /** ISO 8601 time the message was sent, and of its latest edit. */
  time: string;
  edited_time?: string;
}

export function messageView(entry: TranscriptEntry): MessageView {
  return {
    id: entry.id,
    from: entry.from,
    kind: entry.kind,
    text: entry.text,
    ...(entry.entities?.length && {
      entities: entry.entities.map((e) => ({
        type: e.type,
        offset: e.offset,
        length: e.length,
        ...("url" in e && typeof e.url === "string" && { url: e.url }),
      })),
    }),
    inline_keyboard: keyboardView(entry.inlineKeyboard),
    ...(entry.replyKeyboard && { reply_keyboard: entry.replyKeyboard }),
    ...(entry.removeKeyboard && { remove_keyboard: true as const }),
    ...(entry.emoji !== undefined && { emoji: entry.emoji }),
    edited: entry.edited,
    time: new Date(entry.date).toISOString(),
    ...(entry.editedAt !== undefined && { edited_time: new Date(entry.editedAt).toISOString() }),
  };
}

/** The message's inline buttons; null when it has none (a removed keyboard is `[[]]`). */
function keyboardView(rows: TranscriptEntry["inlineKeyboard"]): ButtonView[][] | null {
  const shown = (rows ?? [])
    .filter((row) => row.length > 0)
    .map((row) =>
      row.map((b) => ({
        text: b.text,
        ...(b.callback_data !== undefined && { callback_data: b.callback_data }),
        ...(b.url !== undefined && { url: b.url }),
      })),
    );
  return shown.length > 0 ? shown : null;
}

/** The live event the page receives for an emulator event, or undefined for group chats. */
export function liveEvent(
  event: EmulatorEvent,
  replyKeyboard: (userId: number) => string[][] | undefined,
  contactButtons: (userId: number) => string[] = () => [],
): { type: string; data: Record<string, unknown> } | undefined {
  const userId = event.chatId;
  if (userId <= 0) return undefined;
  switch (event.type) {
    case "message":
      return {
        type: "message",
        data: {
          user_id: userId,
          message: messageView(event.message),
          reply_keyboard: replyKeyboard(userId) ?? null,
          contact_buttons: contactButtons(userId),
        },
      };
    case "edit":
      return { type: "edit", data: { user_id: userId, message: messageView(event.message) } };
    case "delete":
      return { type: "delete", data: { user_id: userId, message_id: event.messageId } };
    case "typing":
      return { type: "typing", data: { user_id: userId, action: event.action } };
    case "callback_answer":
      return {
        type: "callback_answer",
        data: {
          user_id: userId,
          message_id: event.answer.message_id,
          text: event.answer.text ?? null,
          show_alert: event.answer.show_alert,
        },
      };
  }
}

// ---------------------------------------------------------------- sandbox

export interface DeliveryView {
  id: number;
  kind: Delivery["kind"];
  /** ISO 8601 time the event was created. */
  time: string;
  order_id: string | null;
  transaction_id: string | null;
  /** The transaction status the webhook reports (success, failed, pending ...). */
  status: string | null;
  /** Where the delivery stands: delivered, retrying, failed ... */
  state: Delivery["state"];
  /** HTTP status of the latest attempt's answer; null when none came. */
  http_status: number | null;
  error: string | null;
  attempts: number;
  duplicate: boolean;
}

function deliveryView(d: Delivery): DeliveryView {
  const last = d.attempts.at(-1);
  return {
    id: d.id,
    kind: d.kind,
    time: d.createdAt,
    order_id: d.orderId,
    transaction_id: d.transactionId,
    status: d.eventStatus,
    state: d.state,
    http_status: last?.statusCode ?? null,
    error: last?.error ?? null,
    attempts: d.attempts.length,
    duplicate: d.duplicate,
  };
}

export type SandboxView =
  | {
      enabled: true;
      balance_paisa: number;
      /** The balance as the page prints it ("Rs 99,850"). */
      balance: string;
      /** Newest first. */
      deliveries: DeliveryView[];
    }
  | { enabled: false };

export function sandboxView(
  balancePaisa: number,
  deliveries: Delivery[],
  shown: number,
): SandboxView {
  return {
    enabled: true,
    balance_paisa: balancePaisa,
    balance: formatRupees(balancePaisa),
    deliveries: deliveries.slice(-shown).reverse().map(deliveryView),
  };
}

/**
 * The merchant's books as the side panel shows them: each demo user's phone and balance (a
 * customer's prepaid balance, the agent's float) and the newest journal entries in words.
 */
export interface BooksSource {
  /** Each demo user's registered phone and ledger balance (customer or agent account). */
  people(
    ids: number[],
  ): Promise<
    Array<{ id: number; phone: string | null; availablePaisa: number; heldPaisa: number }>
  >;
  /** The newest journal entries, newest first. */
  journal(limit: number): Promise<
    Array<{
      at: number;
      id: string;
      kind: string;
      debit: string;
      credit: string;
      amountPaisa: number;
      reason?: string;
    }>
  >;
}

export interface BooksView {
  enabled: true;
  users: Array<{
    id: number;
    name: string;
    role: Role;
    phone: string | null;
    available_paisa: number;
    available: string;
    held: string | null;
  }>;
  journal: Array<{
    time: string;
    id: string;
    /** The kind in words ("demo credit", "cash in", "hold" ...). */
    kind: string;
    debit: string;
    credit: string;
    amount: string;
    reason: string | null;
  }>;
}

export async function booksView(
  source: BooksSource,
  users: PlaygroundUser[],
  shown: number,
): Promise<BooksView> {
  const people = new Map((await source.people(users.map((u) => u.id))).map((p) => [p.id, p]));
  return {
    enabled: true,
    users: users.map((u) => {
      const p = people.get(u.id);
      return {
        id: u.id,
        name: u.name,
        role: u.role,
        phone: p?.phone ? `+${p.phone}` : null,
        available_paisa: p?.availablePaisa ?? 0,
        available: formatRupees(p?.availablePaisa ?? 0),
        held: p?.heldPaisa ? formatRupees(p.heldPaisa) : null,
      };
    }),
    journal: (await source.journal(shown)).map((e) => ({
      time: new Date(e.at).toISOString(),
      id: e.id,
      kind: e.kind.replace(/_/g, " "),
      debit: e.debit,
      credit: e.credit,
      amount: formatRupees(e.amountPaisa),
      reason: e.reason ?? null,
    })),
  };
}
