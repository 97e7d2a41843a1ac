import { createHash } from "node:crypto";

/**
 * How one WhatsApp chat's hash says things compactly (issue 31: bytes per open conversation). Every
 * field and value stays within Redis's hash-max-listpack-value (64 bytes by default), so the hash
 * stays a listpack (a value once longer turns the hash into a hashtable for good, ~4x the bytes):
 * hashes in place of texts that are only compared, a sent wamid as an 8-character hash, and the
 * words a message must be able to show again cut into pieces of at most 64 bytes.
 */

/** A value in the hash never exceeds this (Redis's default hash-max-listpack-value). */
export const PIECE_BYTES = 64;
/** At most this many pieces of words per message (1.5 KB: a template carries 900 characters). */
export const MAX_PIECES = 24;

const sha = (text: string) => createHash("sha256").update(text).digest("base64url");

/** A text as the record remembers it was shown: 6 characters (36 bits) of its hash. */
export const seenHash = (text: string) => sha(text).slice(0, 6);
/** Whether `seen` (hashes of 6, or 12 in records written before issue 31) holds `text`. */
export const seenHas = (seen: readonly string[], text: string) => {
  const h = seenHash(text);
  return seen.some((s) => s.slice(0, 6) === h);
};
/** A sent wamid's field in its chat's hash: 8 characters (48 bits) of its hash. */
export const wamidHash = (wamid: string) => sha(wamid).slice(0, 8);

/** Separates the numbered choices' data, and the choices from the words. */
const SEP_DATA = "\x1f";
const SEP_TEXT = "\x1e";

/** What a message needs to show again: its numbered choices' data (n = 1, 2, …) and its words. */
export function encodeWords(text: string, choices: readonly { n: number; data: string }[]): string {
  const usable =
    choices.every((c, i) => c.n === i + 1) &&
    choices.every((c) => !c.data.includes(SEP_DATA) && !c.data.includes(SEP_TEXT));
  return `${usable ? choices.map((c) => c.data).join(SEP_DATA) : ""}${SEP_TEXT}${text}`;
}

/** Its words null (and no choices) when cut at MAX_PIECES before they began: not its data as words. */
export function decodeWords(blob: string): {
  text: string | null;
  choices: { n: number; data: string }[];
} {
  const at = blob.indexOf(SEP_TEXT);
  if (at < 0) return { text: null, choices: [] };
  const head = blob.slice(0, at);
  const choices = head === "" ? [] : head.split(SEP_DATA).map((data, i) => ({ n: i + 1, data }));
  return { text: blob.slice(at + 1), choices };
}

/**
 * `blob` in pieces of at most PIECE_BYTES bytes of UTF-8, never inside a character, at most
 * MAX_PIECES (the rest of a longer text is not kept).
 */
export function pieces(blob: string): string[] {
  const out: string[] = [];
  let piece = "";
  let bytes = 0;
  for (const ch of blob) {
    const n = Buffer.byteLength(ch);
    if (bytes + n > PIECE_BYTES) {
      out.push(piece);
      if (out.length === MAX_PIECES) return out;
      piece = "";
      bytes = 0;
    }
    piece += ch;
    bytes += n;
  }
  if (piece !== "" || out.length === 0) out.push(piece);
  return out;
}
