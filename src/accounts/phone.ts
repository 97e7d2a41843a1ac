import { z } from "zod";

/**
 * A customer's phone number as the books know it: the international digits, no "+" ("9779841234567",
 * "919876543210"). A contact shared from Telegram carries them (with or without "+"); an agent types
 * what the customer says, often the ten national digits: a bare ten-digit mobile number starting
 * with 9 is a Nepal number (977), the market the shops are in; India numbers are typed with +91.
 */
export const phoneSchema = z
  .string()
  .regex(/^[1-9][0-9]{7,14}$/)
  .brand<"Phone">();
export type Phone = z.infer<typeof phoneSchema>;

/** A contact's phone_number (digits, maybe "+", maybe spaces) as a Phone; null when it is none. */
export function phoneFromContact(raw: string): Phone | null {
  const digits = raw.replace(/[\s()-]/g, "").replace(/^\+/, "");
  const r = phoneSchema.safeParse(digits);
  return r.success ? r.data : null;
}

export type PhoneInputError = "format";

/**
 * A number an agent typed: "+977 984-1234567", "9779841234567", "9841234567" (Nepal), "+91 98765
 * 43210". Spaces and dashes are ignored; anything else is refused (the agent is asked again).
 */
export function phoneFromTyped(
  raw: string,
): { ok: true; phone: Phone } | { ok: false; error: PhoneInputError } {
  const text = raw.trim().replace(/[\s-]/g, "");
  if (!/^\+?[0-9]+$/.test(text)) return { ok: false, error: "format" };
  let digits = text.replace(/^\+/, "");
  if (!text.startsWith("+") && /^9[0-9]{9}$/.test(digits)) digits = `977${digits}`;
  // Nepal and India numbers have ten national digits; another country's only with its "+".
  const known =
    (digits.startsWith("977") && digits.length === 13) ||
    (digits.startsWith("91") && digits.length === 12);
  const other = text.startsWith("+") && !digits.startsWith("977") && !digits.startsWith("91");
  const r = phoneSchema.safeParse(digits);
  return r.success && (known || other)
    ? { ok: true, phone: r.data }
    : { ok: false, error: "format" };
}

/** How a phone reads in a chat: "+977 9841234567". */
export function formatPhone(p: Phone): string {
  for (const cc of ["977", "91"]) {
    if (p.startsWith(cc) && p.length === cc.length + 10) return `+${cc} ${p.slice(cc.length)}`;
  }
  return `+${p}`;
}
