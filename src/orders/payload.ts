/**
 * A provider's answer, webhook or status reply as the order keeps it for the back office's
 * timeline (issue 29): JSON, with the values of secret-looking fields hidden (a token must never be
 * shown), cut to MAX_PAYLOAD_CHARS so an order's record stays small (at most MAX_HISTORY entries).
 */

export const MAX_PAYLOAD_CHARS = 4096;

const SECRET_KEY =
  /token|secret|password|passwd|api[-_]?key|authori[sz]ation|signature|cookie|\bpin\b|otp/i;
/**
 * SECRET_KEY without its word boundaries, derived so a word added there is looked for here too:
 * whatever part of a key SECRET_KEY matches is made of letters, `-` and `_`, which JSON writes as
 * they are, so a text this does not match has no key to hide. (The boundaries can differ in the
 * text: the key "a\npin" is written "a\\npin".)
 */
const MAYBE_SECRET_KEY = new RegExp(SECRET_KEY.source.replaceAll("\\b", ""), SECRET_KEY.flags);
const CUT = "…(cut)";

const hideSecrets = (key: string, v: unknown) =>
  key !== "" && SECRET_KEY.test(key) ? "[hidden]" : v;

export function payloadOf(value: unknown): string {
  let text: string;
  try {
    // A replacer makes JSON.stringify about three times slower (a webhook's payload, on every
    // request): it runs only when the plain text may hold a key to hide.
    const plain = JSON.stringify(value);
    text =
      (plain !== undefined && MAYBE_SECRET_KEY.test(plain)
        ? JSON.stringify(value, hideSecrets)
        : plain) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length <= MAX_PAYLOAD_CHARS
    ? text
    : `${text.slice(0, MAX_PAYLOAD_CHARS - CUT.length)}${CUT}`;
}
