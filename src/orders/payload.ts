/**
 * A provider's answer, webhook or status reply as the order keeps it for the back office's
 * timeline (issue 29): JSON, with the values of secret-looking fields hidden (a token must never be
 * shown), cut to MAX_PAYLOAD_CHARS so an order's record stays small (at most MAX_HISTORY entries).
 */

export const MAX_PAYLOAD_CHARS = 4096;

const SECRET_KEY =
  /token|secret|password|passwd|api[-_]?key|authori[sz]ation|signature|cookie|\bpin\b|otp/i;
const CUT = "…(cut)";

export function payloadOf(value: unknown): string {
  let text: string;
  try {
    text =
      JSON.stringify(value, (key, v) => (key !== "" && SECRET_KEY.test(key) ? "[hidden]" : v)) ??
      String(value);
  } catch {
    text = String(value);
  }
  return text.length <= MAX_PAYLOAD_CHARS
    ? text
    : `${text.slice(0, MAX_PAYLOAD_CHARS - CUT.length)}${CUT}`;
}
