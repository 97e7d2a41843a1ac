// The WhatsApp Business Cloud API stand-in: Meta's Graph API for sends (strict checks, the
// 24-hour window, error codes) and Meta's webhooks for the customer's messages and the statuses,
// driven by tests as the customer's phone.
import { randomBytes } from "node:crypto";
import { StandInCore } from "./core.ts";
import { createGraphRoutes } from "./routes.ts";
import type {
  StandInMatch,
  StandInMessage,
  WhatsAppStandIn,
  WhatsAppStandInOptions,
} from "./types.ts";

export function createWhatsAppStandIn(opts: WhatsAppStandInOptions): WhatsAppStandIn {
  const core = new StandInCore(opts);
  const sender = core.sender;
  return {
    app: createGraphRoutes(core),
    setWebhookUrl: (url) => sender.setUrl(url),
    userSends: async (user, text) => core.inbound(user, { type: "text", text: { body: text } }),
    userSendsMessage: async (user, message) => core.inbound(user, message),
    tap: async (waId, businessWamid, idOrTitle) => {
      const message = core.findMessage(businessWamid);
      if (!message || message.to !== waId)
        throw new Error(`no business message ${businessWamid} to ${waId}`);
      const button =
        message.buttons.find((b) => b.id === idOrTitle) ??
        message.buttons.find((b) => b.title === idOrTitle);
      if (!button) throw new Error(`message ${businessWamid} has no button "${idOrTitle}"`);
      return core.inbound({ waId }, tapMessage(message, button, opts, businessWamid));
    },
    messagesTo: (waId) => core.messagesTo(waId),
    waitForMessage: (waId, match, o) => waitForMessage(core, waId, match, o),
    closeWindow: (waId) => core.closeWindow(waId),
    faults: {
      failNextSends: (code, n = 1, waId) => core.failNextSends(code, n, waId),
      dropNextWebhooks: (n, kind) => sender.dropNext(n, kind),
      delayWebhooksMs: (ms) => sender.setDelay(ms),
      duplicateNextWebhooks: (n, kind) => sender.duplicateNext(n, kind),
      failStatusFor: (waId, code) => core.failStatusFor(waId, code),
      omitUserIdOf: (waId) => core.omitUserIdOf(waId),
    },
    statuses: (wamid) => core.statuses(wamid),
    webhookDeliveries: () => sender.deliveries(),
    readMarks: () => [...core.reads],
    sendCount: () => core.accepted,
    verifyWebhook: (token) => verifyWebhook(core, token),
    settled: () => core.settled(),
    close: async () => core.close(),
  };
}

/** The inbound message a tap produces: button_reply, list_reply, or a template quick reply. */
function tapMessage(
  message: StandInMessage,
  button: StandInMessage["buttons"][number],
  opts: WhatsAppStandInOptions,
  businessWamid: string,
): Record<string, unknown> {
  const context = { from: opts.displayPhoneNumber ?? "15550783881", id: businessWamid };
  if (message.kind === "template")
    return { type: "button", context, button: { text: button.title, payload: button.id } };
  if (message.kind === "list") {
    const list_reply = {
      id: button.id,
      title: button.title,
      ...(button.description ? { description: button.description } : {}),
    };
    return { type: "interactive", context, interactive: { type: "list_reply", list_reply } };
  }
  if (message.kind !== "button") throw new Error(`a ${message.kind} message has no buttons to tap`);
  const button_reply = { id: button.id, title: button.title };
  return { type: "interactive", context, interactive: { type: "button_reply", button_reply } };
}

function toMatcher(match: StandInMatch | undefined): (m: StandInMessage) => boolean {
  if (match === undefined) return () => true;
  if (typeof match === "string") return (m) => m.text.includes(match);
  if (match instanceof RegExp) return (m) => match.test(m.text);
  return match;
}

function waitForMessage(
  core: StandInCore,
  waId: string,
  match: StandInMatch | undefined,
  opts: { afterWamid?: string; timeoutMs?: number } = {},
): Promise<StandInMessage> {
  const matches = toMatcher(match);
  const after = opts.afterWamid === undefined ? undefined : core.seqOfWamid(opts.afterWamid);
  if (opts.afterWamid !== undefined && after === undefined)
    return Promise.reject(new Error(`unknown wamid ${opts.afterWamid}`));
  const find = (): StandInMessage | undefined => {
    const messages = core.messagesTo(waId);
    if (after === undefined) return messages.reverse().find(matches);
    return messages.find((m) => core.seqOfMessage(m) > after && matches(m));
  };
  const timeoutMs = opts.timeoutMs ?? 10_000;
  return new Promise((resolve, reject) => {
    const check = () => {
      const found = find();
      if (found) finish(() => resolve(found));
      else if (core.closed) finish(() => reject(new Error("the stand-in was closed")));
    };
    const timer = setTimeout(() => {
      const seen = core
        .messagesTo(waId)
        .map((m) => JSON.stringify(m.text))
        .join("\n  ");
      finish(() =>
        reject(
          new Error(
            `no message to ${waId} matching ${String(match)} within ${timeoutMs} ms; seen:\n  ${seen}`,
          ),
        ),
      );
    }, timeoutMs);
    const off = core.onChange(check);
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      off();
      settle();
    };
    check();
  });
}

async function verifyWebhook(
  core: StandInCore,
  token = core.opts.verifyToken ?? "",
): Promise<{ status: number; body: string; challenge: string }> {
  const url = core.sender.url;
  if (!url) throw new Error("no webhook URL set");
  const challenge = String(randomBytes(4).readUInt32BE());
  const target = new URL(url);
  target.searchParams.set("hub.mode", "subscribe");
  target.searchParams.set("hub.verify_token", token);
  target.searchParams.set("hub.challenge", challenge);
  const response = await fetch(target, { signal: AbortSignal.timeout(5_000), redirect: "manual" });
  return { status: response.status, body: await response.text(), challenge };
}
