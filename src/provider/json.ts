/**
 * JSON.parse that keeps integers beyond 2^53 exact: the provider's transaction ids may exceed
 * Number.MAX_SAFE_INTEGER, and JSON.parse would silently round them. Node 20 has no reviver source
 * access, so integer literals that are not safe integers are turned into JSON strings before parsing.
 */
export function parseJsonPreservingBigInts(text: string): unknown {
  return JSON.parse(quoteUnsafeIntegers(text));
}

/** Every unsafe integer has at least 16 digits: a text without such a run needs no rewriting. */
function hasDigitRun(text: string): boolean {
  // A loop, not /\d{16}/: the regex retries from every digit of each shorter run (a webhook's
  // ids and timestamp), about half the cost of the JSON.parse after it.
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) {
      if (++run === 16) return true;
    } else run = 0;
  }
  return false;
}

function isNumberChar(code: number): boolean {
  // 0-9 . + - e E
  return (
    (code >= 48 && code <= 57) ||
    code === 46 ||
    code === 43 ||
    code === 45 ||
    code === 101 ||
    code === 69
  );
}

function quoteUnsafeIntegers(text: string): string {
  if (!hasDigitRun(text)) return text;
  let out = "";
  let copiedUpTo = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === 34) {
      // Skip a string literal, honouring backslash escapes.
      i++;
      while (i < text.length) {
        const c = text.charCodeAt(i);
        if (c === 92) i += 2;
        else if (c === 34) {
          i++;
          break;
        } else i++;
      }
      continue;
    }
    if (code === 45 || (code >= 48 && code <= 57)) {
      const start = i;
      i++;
      while (i < text.length && isNumberChar(text.charCodeAt(i))) i++;
      const literal = text.slice(start, i);
      if (/^-?\d+$/.test(literal) && !Number.isSafeInteger(Number(literal))) {
        out += `${text.slice(copiedUpTo, start)}"${literal}"`;
        copiedUpTo = i;
      }
      continue;
    }
    i++;
  }
  return out + text.slice(copiedUpTo);
}
