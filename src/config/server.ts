import { z } from "zod";
import {
  bool,
  emptyToUndefined,
  host,
  isLoopbackHost,
  optionalBaseUrl,
  optionalString,
  type Parsed,
  port,
} from "./fields.ts";
import type { Mode } from "./local.ts";

/** The public listener, the metrics listener and the logs. */
export const serverEnv = {
  PORT: port(8080),
  HOST: host("127.0.0.1"),
  /** Prometheus metrics, on a listener of their own (never the public one). */
  METRICS_PORT: port(9464),
  METRICS_HOST: host("127.0.0.1"),
  METRICS_TOKEN: optionalString,
  /** METRICS_HOST beyond loopback without METRICS_TOKEN: the books open to the network, on purpose. */
  METRICS_PUBLIC_WITHOUT_TOKEN: bool(false),
  PUBLIC_URL: optionalBaseUrl,
  /** The back office under /dashboard on the public listener; default: on in local mode only. */
  DASHBOARD: z.preprocess(emptyToUndefined, z.enum(["0", "1"]).optional()),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  ),
};
type ServerEnv = Parsed<typeof serverEnv>;

export function serverRules(e: ServerEnv): string[] {
  const problems: string[] = [];
  if (e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT)
    problems.push("METRICS_PORT: must differ from PORT (metrics are never served publicly)");
  // Without a token the listener answers anyone who reaches it: /books and the whole journal.
  if (!isLoopbackHost(e.METRICS_HOST) && !e.METRICS_TOKEN && !e.METRICS_PUBLIC_WITHOUT_TOKEN)
    problems.push(
      `METRICS_TOKEN: required when METRICS_HOST (${e.METRICS_HOST}) is not loopback: /books and /books/journal.csv would answer anyone on the network (METRICS_PUBLIC_WITHOUT_TOKEN=1 to accept that)`,
    );
  return problems;
}

export function serverSettings(e: ServerEnv & { PLAYGROUND_PUBLIC: boolean }, mode: Mode) {
  // The playground lets anyone who reaches it chat as any demo user: loopback only, unless asked.
  const hostForced = mode.playground && !e.PLAYGROUND_PUBLIC && !isLoopbackHost(e.HOST);
  return {
    http: {
      host: hostForced ? "127.0.0.1" : e.HOST,
      /** Set when HOST was replaced by loopback because the playground runs (PLAYGROUND_PUBLIC unset). */
      hostRefused: hostForced ? e.HOST : undefined,
      port: e.PORT,
      publicUrl: e.PUBLIC_URL,
    },
    metrics: { host: e.METRICS_HOST, port: e.METRICS_PORT, token: e.METRICS_TOKEN },
    /** The back office: DASHBOARD=1 / 0; unset, on in local mode (no PROVIDER_URL, no BOT_TOKEN). */
    dashboard: { enabled: e.DASHBOARD === undefined ? mode.local : e.DASHBOARD === "1" },
    logLevel: e.LOG_LEVEL,
  };
}
