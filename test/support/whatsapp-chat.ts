import type { StandInMatch, StandInMessage, WhatsAppStandIn } from "../../dev/whatsapp/index.ts";

/**
 * The WhatsApp chat driver: one customer's phone on the stand-in, used the way a person uses
 * WhatsApp: type, tap a reply button or a list row, read. Flows are append-only there, so every
 * step waits for a new business message after the customer's own.
 */
export class WhatsAppChatUser {
  readonly timeoutMs: number;
  readonly name: string | undefined;
  readonly userId: string | undefined;

  constructor(
    readonly standIn: WhatsAppStandIn,
    readonly waId: string,
    opts: { name?: string; userId?: string; timeoutMs?: number } = {},
  ) {
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.name = opts.name;
    this.userId = opts.userId;
  }

  /** Every business message to this phone, in order. */
  messages(): StandInMessage[] {
    return this.standIn.messagesTo(this.waId);
  }

  texts(): string[] {
    return this.messages().map((m) => m.text);
  }

  last(): StandInMessage {
    const m = this.messages().at(-1);
    if (!m) throw new Error(`no business message to ${this.waId} yet`);
    return m;
  }

  /** Types a message and waits for the next business message matching `expect`. */
  async say(text: string, expect?: StandInMatch): Promise<StandInMessage> {
    const user = { waId: this.waId, name: this.name, userId: this.userId };
    const wamid = await this.standIn.userSends(user, text);
    return this.waitFor(expect, { afterWamid: wamid });
  }

  /** Taps the button or row `label` on the newest message having it; waits for the next message. */
  async tap(label: string | RegExp, expect?: StandInMatch): Promise<StandInMessage> {
    const msg = [...this.messages()].reverse().find((m) => findButton(m, label));
    if (!msg) throw new Error(`no button or row matches ${String(label)} for ${this.waId}`);
    return this.tapOn(msg, label, expect);
  }

  /** Taps `label` on that message (an older one: a stale tap the product must refuse). */
  async tapOn(
    msg: StandInMessage,
    label: string | RegExp,
    expect?: StandInMatch,
  ): Promise<StandInMessage> {
    const button = findButton(msg, label);
    if (!button) throw new Error(`message ${msg.wamid} has no button or row ${String(label)}`);
    const wamid = await this.standIn.tap(this.waId, msg.wamid, button.id);
    return this.waitFor(expect, { afterWamid: wamid });
  }

  /** The button / row titles of `msg` (default: the last message). */
  buttons(msg?: StandInMessage): string[] {
    return (msg ?? this.last()).buttons.map((b) => b.title);
  }

  /** Waits for a business message matching `expect` (the newest, or the first after `afterWamid`). */
  waitFor(
    expect?: StandInMatch,
    opts: { afterWamid?: string; timeoutMs?: number } = {},
  ): Promise<StandInMessage> {
    return this.standIn.waitForMessage(this.waId, expect, {
      timeoutMs: this.timeoutMs,
      ...opts,
    });
  }
}

const ELLIPSIS = /(?:…|\.{2,3})$/;

/**
 * The button whose title is `label`: equal, or (a string label) cut by the product to fit 20/24
 * characters, i.e. a prefix of the label ending in an ellipsis; a RegExp tests the title.
 */
export function findButton(
  msg: StandInMessage,
  label: string | RegExp,
): StandInMessage["buttons"][number] | undefined {
  // A numbered list row reads "3. Label"; a cut title's whole label is its description.
  const shown = (b: { title: string; description?: string }) => [
    b.title.replace(NUMBERED, ""),
    ...(b.description ? [b.description] : []),
  ];
  if (label instanceof RegExp) return msg.buttons.find((b) => shown(b).some((t) => label.test(t)));
  return (
    msg.buttons.find((b) => shown(b).includes(label)) ??
    msg.buttons.find((b) => {
      const title = b.title.replace(NUMBERED, "");
      if (!ELLIPSIS.test(title)) return false;
      const stem = title.replace(ELLIPSIS, "").trimEnd();
      return stem.length > 0 && label.startsWith(stem);
    })
  );
}

const NUMBERED = /^\d+\. /;
