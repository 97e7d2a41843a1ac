import { ServerResponse } from "node:http";
import type { HttpBindings } from "@hono/node-server";
import type { Context } from "hono";
import type { Logger } from "../logger.ts";

/**
 * A download's chunks; `written`, when there, is told of each chunk once its bytes are on the wire
 * (ledger/csv-off-thread.ts then refills its buffer rather than allocating another).
 */
export type DownloadChunks = AsyncIterable<string | Uint8Array> & {
  written?: (chunk: Uint8Array) => void;
};

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
  chunks: DownloadChunks,
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
    /** How long a write may wait for the client to read before the download is cut (tests). */
    stallMs?: number;
  },
): Response {
  // Served by @hono/node-server, the response itself is cut (erroring the stream instead would
  // have the server print the error with console.error); elsewhere (app.request) the stream errors.
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
  // Told once each way: whole, then cut only as a correction (the client left while "whole" was
  // being recorded, so the end never went out, and the browser saw a failure); never whole after cut.
  let told: "whole" | "cut" | undefined;
  const ended = async (said: DownloadEnd) => {
    if (!opts.ended || told === "cut" || (said.whole && told === "whole")) return;
    const end: DownloadEnd = told === "whole" ? { whole: false, why: CUT_AT_END } : said;
    told = end.whole ? "whole" : "cut";
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
  const stalled = async () => {
    opts.logger.warn(opts.fields, "a download's client stopped reading; the download is cut");
    await ended({ whole: false, why: STALLED });
    outgoing?.destroy();
  };
  const lost = (err: unknown) => {
    opts.logger.error({ err: errorOf(err), ...opts.fields }, "a written chunk was not given back");
  };
  const res = outgoing instanceof ServerResponse ? outgoing : undefined;
  const stallMs = opts.stallMs ?? DOWNLOAD_STALL_MS;
  const to = { failed, atEnd, ended, stalled, lost, res, stallMs };
  return c.body(textStream(chunks, to), 200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${opts.name}"`,
    "Cache-Control": "no-store",
  });
}

const LEFT = "the client left before the end";
/** Recorded after "whole" when the response was cut before its end went out (the correction). */
const CUT_AT_END = "the client left as the end was sent";
const STALLED = "the client stopped reading";
/** A write that waits this long for the client to read cuts the download (frees its worker). */
export const DOWNLOAD_STALL_MS = 60_000;

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
 *
 * Served by @hono/node-server over HTTP/1 (`res`), once it has sent the head (the middleware's
 * headers with it) and asks for the body, the chunks are written to the response here, each
 * write's callback telling `written` that its bytes are out: a ReadableStream's reader may keep
 * what it was given, so only a write whose completion is seen may give its buffer back. The
 * server's reader waits meanwhile and ends the response when the stream closes, as before. There
 * the stream's queue holds nothing (high-water mark 0): a read is asked for only once the server
 * has written the chunk before it, so the bytes written here always come after.
 */
function textStream(
  chunks: DownloadChunks,
  to: {
    failed: (err: unknown) => Promise<boolean>;
    /** Told of the last chunk; false when the client had left and the response was cut instead. */
    atEnd: () => Promise<boolean>;
    ended: (end: DownloadEnd) => Promise<void>;
    /** A write waited `stallMs` for the client to read: records the cut and destroys the response. */
    stalled: () => Promise<void>;
    /** `written` threw (it runs in Node's write callback: uncaught, it would end the process). */
    lost: (err: unknown) => void;
    res: ServerResponse | undefined;
    stallMs: number;
  },
): ReadableStream<Uint8Array> {
  const it = chunks[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  const bytes = (v: string | Uint8Array) => (typeof v === "string" ? encoder.encode(v) : v);
  // A response closed under the writes: the server's reader cancels the stream, which ends here.
  let gone = () => {};
  const cancelled = new Promise<void>((resolve) => {
    gone = resolve;
  });
  /** The next chunk, or undefined once `failed` was told (and the stream errored if it must). */
  const next = async (controller: ReadableStreamDefaultController<Uint8Array>) => {
    try {
      return await it.next();
    } catch (err) {
      if (await to.failed(err)) await new Promise<void>(() => {});
      controller.error(err);
      return undefined;
    }
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { res } = to;
        if (res?.headersSent) return res.destroyed ? cancelled : writeAll(res, controller);
        const got = await next(controller);
        if (!got) return;
        if (got.done) {
          if (!(await to.atEnd())) return cancelled;
          if (res?.destroyed) return cutAtEnd();
          controller.close();
        } else controller.enqueue(bytes(got.value));
      },
      async cancel() {
        gone();
        await to.ended({ whole: false, why: LEFT });
        await it.return?.();
      },
    },
    // Written here: nothing queued ahead (below). Read through a stream: one chunk ahead, as before.
    to.res ? { highWaterMark: 0 } : undefined,
  );

  /** Every chunk left, written to the response; closes the stream at the end, as pull would. */
  async function writeAll(res: ServerResponse, controller: ReadableStreamDefaultController) {
    for (;;) {
      const got = await next(controller);
      if (!got) return;
      // The client left: the server's reader cancels the stream, and `ended` is told there.
      if (res.destroyed) return cancelled;
      if (got.done) {
        if (!(await to.atEnd())) return cancelled;
        if (res.destroyed) return cutAtEnd();
        controller.close();
        return;
      }
      const chunk = bytes(got.value);
      const done = chunks.written;
      const more = res.write(chunk, (err) => {
        if (err || !done) return;
        try {
          done.call(chunks, chunk);
        } catch (thrown) {
          to.lost(thrown);
        }
      });
      if (!more && !(await drained(res, to.stallMs))) {
        await to.stalled();
        return cancelled;
      }
    }
  }

  /** Recorded whole, then the client left before the end went out: the correction, then the cancel. */
  async function cutAtEnd() {
    await to.ended({ whole: false, why: LEFT });
    return cancelled;
  }
}

/** Resolves true when the response can take more, or is closed; false after `stallMs` of neither. */
function drained(res: ServerResponse, stallMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (more: boolean) => () => {
      clearTimeout(timer);
      res.off("drain", go);
      res.off("close", go);
      resolve(more);
    };
    const go = done(true);
    const timer = setTimeout(done(false), stallMs);
    res.on("drain", go);
    res.on("close", go);
  });
}
