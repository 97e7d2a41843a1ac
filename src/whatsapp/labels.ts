/**
 * Button labels fitted to WhatsApp's title limits (20 for reply buttons and the list opener, 24
 * for list rows, 72 for row descriptions). Lengths count as the Cloud API counts them, in UTF-16
 * units (JavaScript string length), but a label is only ever cut between graphemes, so a
 * Devanagari conjunct or an emoji sequence is kept whole or dropped whole, never half-drawn.
 * Pure: no I/O, same output for the same input.
 */

const ELLIPSIS = "…";
const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** The grapheme clusters of `text`, in order. */
export function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

/** The longest prefix of `text` made of whole graphemes and at most `max` UTF-16 units long. */
export function graphemePrefix(text: string, max: number): string {
  let out = "";
  for (const g of graphemes(text)) {
    if (out.length + g.length > max) break;
    out += g;
  }
  return out;
}

/** Line breaks and runs of spaces become one space: a title is one line. */
function oneLine(label: string): string {
  return label.replace(/\s+/gu, " ").trim();
}

/**
 * `label` on one line in at most `max` units: whole when it fits, else cut between graphemes
 * (at a word boundary when one falls in the kept text's last third) and ended with "…". A blank
 * label becomes "…". `max` must be at least 1.
 */
export function cutLabel(label: string, max: number): string {
  if (max < 1) throw new RangeError(`a title needs room for one character, not ${max}`);
  const line = oneLine(label);
  if (line.length === 0) return ELLIPSIS;
  if (line.length <= max) return line;
  let kept = graphemePrefix(line, max - ELLIPSIS.length);
  // A cut that falls just before a space already ends a word; otherwise back up to the last
  // space, unless that loses more than a third of what fits (a long first word is cut instead).
  if (line[kept.length] !== " ") {
    const space = kept.lastIndexOf(" ");
    if (space > 0 && space >= Math.ceil((kept.length * 2) / 3)) kept = kept.slice(0, space);
  }
  kept = kept.trimEnd();
  return kept.length === 0 ? ELLIPSIS : kept + ELLIPSIS;
}

/** Whether `fitted` says less than `label` (cut, or changed to be unique). */
export function wasCut(label: string, fitted: string): boolean {
  return oneLine(label) !== fitted;
}

/**
 * Each label fitted to `max` units, all distinct: when two fitted titles collide, the later one's
 * end is replaced with " 2", " 3"… (the first suffix no other title has). Meaning is kept as far
 * as `max` allows; order and count match `labels`. `max` must leave room for a suffix (>= 4).
 */
export function fitTitles(labels: string[], max: number): string[] {
  if (max < 4) throw new RangeError(`titles of ${max} units cannot be made unique`);
  const first = labels.map((l) => cutLabel(l, max));
  // Every title the first pass produced is taken, so a suffixed title never equals a later one.
  const taken = new Set(first);
  const seen = new Set<string>();
  return first.map((title, i) => {
    if (!seen.has(title)) {
      seen.add(title);
      return title;
    }
    for (let k = 2; ; k++) {
      const suffix = ` ${k}`;
      if (max - suffix.length < 1) throw new RangeError("too many equal titles for this width");
      const candidate = cutLabel(labels[i] ?? "", max - suffix.length) + suffix;
      if (!taken.has(candidate)) {
        taken.add(candidate);
        seen.add(candidate);
        return candidate;
      }
    }
  });
}

/** Signs an amount starts with or carries: "Rs 100", "रु 100", "रू १००", "₹299", "INR 50". */
const MONEY = /(?:^|[\s(·:-])(?:rs\.?|inr|npr|रु\.?|रू\.?|₹)\s*[\p{Nd}]/iu;

/**
 * Whether a button label reads as a number or an amount ("100", "₹299", "Rs 1,000", "रु ५००",
 * "Pay due Rs 500"): on such a question a typed number must stay an answer, not a row number.
 */
export function looksLikeAmount(label: string): boolean {
  const line = oneLine(label);
  return /^[\p{Nd}]/u.test(line) || /^(?:rs\b|रु|रू|₹)/iu.test(line) || MONEY.test(line);
}
