import type { HttpBindings } from "@hono/node-server";
import type { Context } from "hono";
import type { Logger } from "../logger.ts";

/** How a streamed download ended: whole, or not (a chunk failed, or the client left first). */
export type DownloadEnd = { whole: true } | { whole: false; why: string };

/**
 * A CSV download streamed as its chunks come (the journal's export: a page of lines each, from a
 * worker or the ledger), shared by the metrics listener's /books/journal.csv and the back office's.
 * A chunk that fails once the 200 has gone out is logged through pino and cuts the connection, so
 * the download is seen to fail rather than end as a shorter file that looks whole.
 */
export function csvDownload(
  c: Context,
  chunks: AsyncIterable<string | Uint8Array>,
  opts: {
    /** The file name the browser saves. */
    name: string;
    logger: Logger;
    /** What the failure's log line says of the download (its range). */
    fields: Record<string, unknown>;
    /**
     * Told once how the download ended (the back office audits it): before the last byte goes
     * out or the connection is cut, so whoever sees the end finds it recorded. Its failure is
     * logged, never stands between the client and the end.
     */
    ended?: (end: DownloadEnd) => Promise<void>;
  },
): Response {
  // Served by @hono/node-server, the response itself is cut (erroring the stream instead would
  // have the server print the error with console.error); elsewhere (app.request) the stream errors.
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
  let told = false;
  const ended = async (end: DownloadEnd) => {
    if (told || !opts.ended) return;
    told = true;
    await opts.ended(end).catch((err: unknown) => {
      opts.logger.error({ err: errorOf(err), ...opts.fields }, "a download's end was not recorded");
    });
  };
  const failed = async (err: unknown) => {
    opts.logger.error(
      { err: errorOf(err), ...opts.fields },
      "journal csv failed mid-stream; the download is cut",
    );
    await ended({ whole: false, why: errorOf(err).message });
    outgoing?.destroy();
    return outgoing !== undefined;
  };
  // At the end: whole only when the client is still there to take the last bytes; else the
  // download is told as cut, and the response closed for good.
  const atEnd = async () => {
    if (!clientLeft(outgoing)) {
      await ended({ whole: true });
      return true;
    }
    await ended({ whole: false, why: LEFT });
    outgoing?.destroy();
    return false;
  };
  return c.body(textStream(chunks, failed, atEnd, ended), 200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${opts.name}"`,
    "Cache-Control": "no-store",
  });
}

const LEFT = "the client left before the end";

/**
 * Whether the server already knows the client has gone: its socket reset (destroyed), or ended
 * on the client's FIN (Node then ends it for writing), so what is written now waits in the
 * response's buffer for a socket that will never send it. Known a turn of the loop before the
 * socket's close, which is what cancels the stream; written in that turn, the last chunk and the
 * end were audited as an export.
 */
function clientLeft(outgoing: HttpBindings["outgoing"] | undefined): boolean {
  if (!outgoing) return false;
  const socket = outgoing.socket;
  return outgoing.destroyed || (socket !== null && (socket.destroyed || !socket.writable));
}

export function errorOf(err: unknown) {
  return err instanceof Error
    ? { message: err.message, stack: err.stack }
    : { message: String(err) };
}

/**
 * Chunks of text (or its bytes) as a byte stream, each read when the client is ready for it. When
 * a chunk fails, `failed` is told (once); it answers true when it has cut the response itself, and
 * the stream then waits for the cancel that follows; otherwise the stream errors. `atEnd` is told
 * of the last chunk before the stream closes (it answers false when it has cut the response
 * instead), and `ended` of a cancel (the client left, or the cut).
 */
function textStream(
  chunks: AsyncIterable<string | Uint8Array>,
  failed: (err: unknown) => Promise<boolean>,
  atEnd: () => Promise<boolean>,
  ended: (end: DownloadEnd) => Promise<void>,
): ReadableStream<Uint8Array> {
  const it = chunks[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: IteratorResult<string | Uint8Array>;
      try {
        next = await it.next();
      } catch (err) {
        if (await failed(err)) return new Promise<void>(() => {});
        controller.error(err);
        return;
      }
      if (next.done) {
        if (!(await atEnd())) return new Promise<void>(() => {});
        controller.close();
      } else
        controller.enqueue(
          typeof next.value === "string" ? encoder.encode(next.value) : next.value,
        );
    },
    async cancel() {
      await ended({ whole: false, why: LEFT });
      await it.return?.();
    },
  });
}
