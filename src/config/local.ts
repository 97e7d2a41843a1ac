import { z } from "zod";
import { bool, emptyToUndefined, type Parsed } from "./fields.ts";
import { WHATSAPP_CREDENTIALS, whatsappConfigured, whatsappMeant } from "./whatsapp.ts";

/**
 * Local mode: what runs in place of the real outside when it is not configured (the embedded
 * sandbox without PROVIDER_URL, the playground without BOT_TOKEN). The sandbox's own settings
 * (SANDBOX_PORT, SANDBOX_FAULTS, its delays...) are read by the sandbox (dev/sandbox/settings.ts):
 * the product only hands them over, unread (`sandbox.env`).
 */
export const localEnv = {
  /** The playground (and its Bot API emulator) with a real provider: only on purpose. */
  PLAYGROUND: bool(false),
  /** The playground on a non-loopback HOST: only on purpose. */
  PLAYGROUND_PUBLIC: bool(false),
  /** The embedded sandbox's account token: the product calls the sandbox with it. */
  SANDBOX_TOKEN: z.preprocess(emptyToUndefined, z.string().default("sandbox-token")),
};
type LocalEnv = Parsed<typeof localEnv>;
/** What decides the mode: the provider, and the channels (Telegram's token, WhatsApp's credentials). */
type ModeEnv = LocalEnv & {
  PROVIDER_URL?: string | undefined;
  BOT_TOKEN?: string | undefined;
} & Partial<Record<(typeof WHATSAPP_CREDENTIALS)[number], string | undefined>>;

/** Whether the real channels and the real provider are there decides what runs locally. */
export function localRules(e: ModeEnv): string[] {
  const problems: string[] = [];
  // A real provider needs a real channel: Telegram, WhatsApp or both (a partial WhatsApp
  // configuration is named by whatsappRules).
  if (e.PROVIDER_URL && !e.BOT_TOKEN && !whatsappMeant(e) && !e.PLAYGROUND)
    problems.push(
      `BOT_TOKEN or ${WHATSAPP_CREDENTIALS.join(", ")}: a channel is required when PROVIDER_URL is set: Telegram (BOT_TOKEN), WhatsApp (all four WHATSAPP_ variables) or both (or set PLAYGROUND=1 to chat with the bot in a browser against that provider, on purpose)`,
    );
  if (e.PLAYGROUND && e.BOT_TOKEN)
    problems.push("PLAYGROUND: the playground replaces Telegram; unset BOT_TOKEN or PLAYGROUND");
  return problems;
}

export function modeOf(e: ModeEnv, redis: boolean) {
  const embeddedSandbox = !e.PROVIDER_URL;
  // Without Telegram the playground stands in for it, unless WhatsApp is the channel (PLAYGROUND=1
  // still asks for it beside WhatsApp).
  const playground = !e.BOT_TOKEN && (e.PLAYGROUND || !whatsappConfigured(e));
  return {
    playground,
    embeddedSandbox,
    /**
     * The whole product runs locally (no PROVIDER_URL, no real channel): only then may a stand-in
     * that impersonates money (the Khalti stand-in) be served. PLAYGROUND=1 against a real
     * provider is not local: a balance credited there is spent at the real aggregator.
     */
    local: embeddedSandbox && playground,
    /** PLAYGROUND_PUBLIC=1: the playground is served on a non-loopback HOST, on purpose. */
    playgroundPublic: playground && e.PLAYGROUND_PUBLIC,
    redis,
  };
}
export type Mode = ReturnType<typeof modeOf>;

/** The sandbox's variables, handed to it unread (local mode, `npm run sandbox`). */
export function sandboxSettings(e: LocalEnv, env: Record<string, string | undefined>) {
  return {
    token: e.SANDBOX_TOKEN,
    env: Object.fromEntries(
      Object.entries(env).filter(
        ([name]) => name.startsWith("SANDBOX_") && name !== "SANDBOX_TOKEN",
      ),
    ),
  };
}
