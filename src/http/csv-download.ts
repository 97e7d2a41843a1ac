import type { HttpBindings } from "@hono/node-server";
import type { Context } from "hono";
import type { Logger } from "../logger.ts";

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
  },
): Response {
  // Served by @hono/node-server, the response itself is cut (erroring the stream instead would
  // have the server print the error with console.error); elsewhere (app.request) the stream errors.
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
  const failed = (err: unknown) => {
    opts.logger.error(
      { err: errorOf(err), ...opts.fields },
      "journal csv failed mid-stream; the download is cut",
    );
    outgoing?.destroy();
    return outgoing !== undefined;
  };
  return c.body(textStream(chunks, failed), 200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${opts.name}"`,
    "Cache-Control": "no-store",
  });
}

export function errorOf(err: unknown) {
  return err instanceof Error
    ? { message: err.message, stack: err.stack }
    : { message: String(err) };
}

/**
 * Chunks of text (or its bytes) as a byte stream, each read when the client is ready for it. When
 * a chunk fails, `failed` is told (once); it answers true when it has cut the response itself, and
 * the stream then waits for the cancel that follows; otherwise the stream errors.
 */
function textStream(
  chunks: AsyncIterable<string | Uint8Array>,
  failed: (err: unknown) => boolean,
): ReadableStream<Uint8Array> {
  const it = chunks[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: IteratorResult<string | Uint8Array>;
      try {
        next = await it.next();
      } catch (err) {
        if (failed(err)) return new Promise<void>(() => {});
        controller.error(err);
        return;
      }
      if (next.done) controller.close();
      else
        controller.enqueue(
          typeof next.value === "string" ? encoder.encode(next.value) : next.value,
        );
    },
    async cancel() {
      await it.return?.();
    },
  });
}
