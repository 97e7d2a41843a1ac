/**
 * Reading a webhook's body within a size limit. A body over the limit is read and discarded (up to
 * DISCARD_LIMIT_BYTES) before the 413, so a sender still writing gets the answer rather than a
 * reset connection.
 */

export class TooLarge extends Error {
  constructor(
    /** The whole body was read (and discarded): the connection can carry the answer safely. */
    readonly drained: boolean,
  ) {
    super("too large");
  }
}

/**
 * How much of a too-large body is read and thrown away so the sender, still writing, gets our 413
 * instead of a reset connection; past this the connection is closed after the answer.
 */
const DISCARD_LIMIT_BYTES = 1024 * 1024;

/** Reads and discards the rest of a body, up to `limit` bytes; true when it ended within. */
async function discard(reader: ReadableStreamDefaultReader<Uint8Array>, limit: number) {
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return true;
    total += value.byteLength;
    if (total > limit) return false;
  }
}

/**
 * The body's exact bytes, refusing more than `max` without buffering them. Bytes, not text: a
 * signature covers the bytes, and a decode/encode round trip need not give them back (WhatsApp's).
 */
export async function readBytesCapped(req: Request, max: number): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > max) {
    if (declared > DISCARD_LIMIT_BYTES || !req.body) throw new TooLarge(!req.body);
    throw new TooLarge(await discard(req.body.getReader(), DISCARD_LIMIT_BYTES));
  }
  // A declared length within the cap is enforced by Node's HTTP parser (the body cannot be longer),
  // so the whole body can be read at once: the server's fast path, much cheaper than a stream.
  if (Number.isFinite(declared)) return new Uint8Array(await req.arrayBuffer());
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) throw new TooLarge(await discard(reader, DISCARD_LIMIT_BYTES - total));
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The body as text (UTF-8), refusing more than `max` bytes without buffering them. */
export async function readCapped(req: Request, max: number): Promise<string> {
  const bytes = await readBytesCapped(req, max);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
}
