import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";

/** Where every chaos test leaves its captured logs, for a look after a failure. */
export const LOG_DIR = join(tmpdir(), "chaos-logs");

/**
 * Every log line of a chaos test: the in-process app's pino output, the sandbox's, and the stdout
 * and stderr of every child process. `scan` looks for the run's secrets in all of it.
 */
export class LogCapture {
  readonly lines: Array<{ source: string; line: string }> = [];
  private readonly partial = new Map<string, string>();

  /** Appends raw output of `source`, split into lines (a chunk may end mid-line). */
  write(source: string, chunk: string | Buffer): void {
    const text = (this.partial.get(source) ?? "") + String(chunk);
    const parts = text.split("\n");
    this.partial.set(source, parts.pop() ?? "");
    for (const line of parts) if (line !== "") this.lines.push({ source, line });
  }

  /** A stream for pino's `destination`. */
  sink(source: string): Writable {
    return new Writable({
      write: (chunk, _enc, cb) => {
        this.write(source, chunk as Buffer);
        cb();
      },
    });
  }

  /** Flushes unterminated tails (a killed child's last words). */
  flush(): void {
    for (const [source, rest] of this.partial) {
      if (rest !== "") this.lines.push({ source, line: rest });
    }
    this.partial.clear();
  }

  /** Writes everything captured to LOG_DIR/<name>.log; returns the path. */
  save(name: string): string {
    this.flush();
    mkdirSync(LOG_DIR, { recursive: true });
    const path = join(LOG_DIR, `${name}.log`);
    writeFileSync(path, this.lines.map(({ source, line }) => `${source} ${line}`).join("\n"));
    return path;
  }

  /** Lines whose pino level is error or fatal (50, 60). */
  errors(): Array<{ source: string; line: string }> {
    return this.lines.filter(({ line }) => /"level":(50|60)\b/.test(line));
  }

  matching(re: RegExp): Array<{ source: string; line: string }> {
    return this.lines.filter(({ line }) => re.test(line));
  }

  /** Lines containing any of `needles`, and how often the logger's scrubber had to step in. */
  scan(needles: readonly string[]): { lines: number; leaks: string[]; redactions: number } {
    this.flush();
    const leaks: string[] = [];
    let redactions = 0;
    for (const { source, line } of this.lines) {
      if (needles.some((n) => line.includes(n))) leaks.push(`${source}: ${line.slice(0, 300)}`);
      if (line.includes("[redacted]")) redactions++;
    }
    return { lines: this.lines.length, leaks, redactions };
  }
}

/** The scan as figures: lines looked at, leaks found, lines the logger's scrubber had to clean. */
export function secretFigures(scan: { lines: number; leaks: string[]; redactions: number }) {
  return {
    "log lines scanned for secrets": scan.lines,
    "secret leaks": scan.leaks.length,
    "lines where the logger had to scrub a secret": scan.redactions,
  };
}
