import { Writable } from "node:stream";
import { createLogger, type LoggerOptions } from "../../src/logger.ts";

/** The product's logger (pino) writing into a list: each line it logged, parsed, to assert on. */
export function loggedLines(opts: Omit<LoggerOptions, "destination"> = {}) {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger({
    ...opts,
    destination: new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    }),
  });
  return { logger, lines };
}
