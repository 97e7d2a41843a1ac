/**
 * The command words WhatsApp's texts tell a customer to type (bare: whatsapp/update.ts reads a
 * command word as the command; a slash is a Telegram habit there). Passed as placeholders, as
 * conversations/register/link.ts does with "link": every language names the very word typed.
 */
export const TYPED_WORDS = { recharge: "recharge", help: "help" } as const;
