/*
 * Who may use the playground: anyone who reaches it chats as any demo user, the admin included, so
 * the browser of the developer who runs it must not be turned against it.
 *
 * - Host: only the server's own loopback names on its own port (127.0.0.1:8080, localhost:8080,
 *   [::1]:8080). A DNS-rebinding page (evil.example re-pointed at 127.0.0.1) sends its own name
 *   and is refused, so it can read nothing. With PLAYGROUND_PUBLIC=1 an IP address (a rebinding
 *   page cannot have one as its origin) and the names configured are accepted too, on any port.
 * - Origin: absent (scripts, same-origin GETs) or the same origin as Host; a page elsewhere is
 *   refused even where the browser would send its request without asking (a "simple" POST).
 * - A POST must say Content-Type: application/json (415 otherwise): a form or a text/plain fetch,
 *   which a foreign page may send without a CORS preflight, is never taken as a chat message.
 */
import { isIP } from "node:net";
import type { Context, MiddlewareHandler } from "hono";
import { isLoopbackHost } from "../../../src/config/index.ts";

export interface PlaygroundGuardOptions {
  /**
   * The server's port; default: the port the request arrived on (the socket's local port). A Host
   * naming another port is refused.
   */
  port?: number;
  /**
   * PLAYGROUND_PUBLIC=1: an IP address is a valid Host too, and the port is not checked (a
   * container's published port is not the one it listens on).
   */
  public?: boolean;
  /** Further Host values (name[:port], e.g. a PUBLIC_URL's) accepted as they are. */
  hosts?: readonly string[];
  /** Refuse a POST that is not application/json (default true; the Bot API emulator takes forms too). */
  requireJson?: boolean;
}

interface NodeEnv {
  incoming?: { socket?: { localPort?: number } };
}

/** Host and Origin checks for every playground route; the JSON check for its POSTs. */
export function playgroundGuard(opts: PlaygroundGuardOptions = {}): MiddlewareHandler {
  const extra = new Set((opts.hosts ?? []).map((h) => h.toLowerCase()));
  return async (c, next) => {
    const host = c.req.header("host")?.toLowerCase() ?? "";
    if (!hostAllowed(host, ownPort(c, opts), opts.public === true, extra))
      return c.json({ error: "this Host is not the playground's" }, 403);
    const origin = c.req.header("origin");
    const fetchSite = c.req.header("sec-fetch-site");
    if (origin !== undefined && !sameOrigin(origin, host, fetchSite))
      return c.json({ error: "requests from another origin are refused" }, 403);
    // A link followed from elsewhere (a GET navigation) is fine; a write from elsewhere is not.
    const safe = c.req.method === "GET" || c.req.method === "HEAD";
    if (!safe && fetchSite === "cross-site")
      return c.json({ error: "requests from another site are refused" }, 403);
    if (
      opts.requireJson !== false &&
      c.req.method === "POST" &&
      !isJson(c.req.header("content-type"))
    )
      return c.json({ error: "Content-Type must be application/json" }, 415);
    await next();
  };
}

function ownPort(c: Context, opts: PlaygroundGuardOptions): number | undefined {
  return opts.port ?? (c.env as NodeEnv | undefined)?.incoming?.socket?.localPort;
}

/** `name[:port]` split the way a browser writes it; undefined for anything else. */
function splitHost(host: string): { name: string; port: number } | undefined {
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/.exec(host);
  if (!m?.[1]) return undefined;
  return { name: m[1], port: m[2] === undefined ? 80 : Number(m[2]) };
}

function hostAllowed(
  host: string,
  port: number | undefined,
  publicIp: boolean,
  extra: ReadonlySet<string>,
): boolean {
  if (extra.has(host)) return true;
  const parts = splitHost(host);
  if (!parts) return false;
  // Served on purpose beyond loopback (a container's published port may differ from its own):
  // any port, but still only names no rebinding page can have.
  if (publicIp)
    return isLoopbackHost(parts.name) || isIP(parts.name.replace(/^\[(.*)\]$/, "$1")) !== 0;
  return port !== undefined && parts.port === port && isLoopbackHost(parts.name);
}

function sameOrigin(origin: string, host: string, fetchSite: string | undefined): boolean {
  // A form posted by a page served with `Referrer-Policy: no-referrer` (our secure headers) says
  // Origin "null"; the browser's own Sec-Fetch-Site, which no page can set, tells it is our page.
  if (origin === "null" && fetchSite === "same-origin") return true;
  try {
    const u = new URL(origin);
    return (u.protocol === "http:" || u.protocol === "https:") && u.host.toLowerCase() === host;
  } catch {
    // "null" (a sandboxed frame, a file:// page) and anything unparsable.
    return false;
  }
}

function isJson(contentType: string | undefined): boolean {
  return contentType?.split(";")[0]?.trim().toLowerCase() === "application/json";
}
