// WhatsApp Business Cloud API stand-in: the Graph API's send endpoint with Meta's checks and
// errors, and Meta's signed webhooks, driven by tests as the customer's phone.
export { MetaError } from "./errors.ts";
export type { RunningStandIn } from "./server.ts";
export { startWhatsAppStandInServer } from "./server.ts";
export { createWhatsAppStandIn } from "./stand-in.ts";
export type {
  StandInButton,
  StandInFaults,
  StandInKind,
  StandInLogger,
  StandInMatch,
  StandInMedia,
  StandInMessage,
  StandInStatus,
  WebhookDelivery,
  WebhookKind,
  WhatsAppStandIn,
  WhatsAppStandInOptions,
} from "./types.ts";
export { metaJson, signature } from "./webhooks.ts";
