import { isIP } from "node:net";
import { z } from "zod";
import { chatIdOfWaId } from "../whatsapp/chat-ids.ts";

/**
 * The building blocks every concern's schema is made of: an environment variable is a string or
 * unset, and an empty string counts as unset (compose passes `VAR=` through as "").
 */

export const emptyToUndefined = (v: unknown) =>
  typeof v === "string" && v.trim() === "" ? undefined : v;
export const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
export const int = (def: number, min = 0) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().min(min).default(def));
export const bool = (def: boolean) =>
  z
    .preprocess(
      emptyToUndefined,
      z.enum(["true", "false", "1", "0", "yes", "no"]).default(def ? "true" : "false"),
    )
    .transform((v) => v === "true" || v === "1" || v === "yes");
export const port = (def: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65_535).default(def));
/** An IPv4/IPv6 address or a DNS hostname: what `listen()` accepts without a lookup failure. */
export const host = (def: string) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default(def)
      .refine(isIpOrPlainHostname, "must be an IPv4 or IPv6 address or a plain hostname"),
  );
/** A path on the aggregator's API (below PROVIDER_URL). */
export const apiPath = (def: string) =>
  z.preprocess(emptyToUndefined, z.string().startsWith("/", "must start with /").default(def));
export const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" });
/** An http(s) URL without its trailing slashes, or unset. */
export const optionalBaseUrl = z.preprocess(
  emptyToUndefined,
  httpUrl.transform((u) => u.replace(/\/+$/, "")).optional(),
);

const HOSTNAME =
  /^(?=.{1,253}$)[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
/**
 * An IP address, or a hostname of letters, digits and hyphens whose last label is not all digits
 * (RFC 1123 2.1: a name must not look like a dotted number; "10.0.0.256" is no name).
 */
export function isIpOrPlainHostname(h: string): boolean {
  if (isIP(h) !== 0) return true;
  return HOSTNAME.test(h) && !/(^|\.)\d+$/.test(h);
}

/**
 * Only real loopback addresses count: `localhost`, an IPv4 address in 127.0.0.0/8, `::1` (also
 * bracketed) and the IPv4-mapped `::ffff:127.x.y.z`. A DNS name that merely starts with "127."
 * (127.evil.example) resolves wherever its owner wants.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  if (h === "localhost") return true;
  if (isIP(h) === 4) return h.startsWith("127.");
  if (isIP(h) !== 6) return false;
  if (h === "::1" || h === "0:0:0:0:0:0:0:1") return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h)?.[1];
  return mapped !== undefined && isIP(mapped) === 4 && mapped.startsWith("127.");
}

/** Comma-separated items, blanks dropped. */
export const listItems = (s: string) =>
  s
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);

/** One id as configured: a Telegram user id or `wa:<phone digits>`; null if neither. */
function idOf(item: string): number | null {
  const wa = /^wa:\+?(\d+)$/i.exec(item);
  return wa ? chatIdOfWaId(wa[1] ?? "") : /^-?\d{1,20}$/.test(item) ? Number(item) : null;
}

/**
 * People by id, comma-separated: AGENT_IDS, ADMIN_IDS, STAFF_IDS. A Telegram user id, or
 * `wa:<phone digits>` for a WhatsApp chat (its id, src/whatsapp/chat-ids.ts). A role is the
 * channel's own (bot/person.ts `channelIdOf`): someone on both channels is listed twice, since a
 * number registered on Telegram proves nothing about who writes from it on WhatsApp now. One
 * person's ids may be joined by `=` (`123=wa:+977…`): one person, each id its own chat (maker-
 * checker counts people, src/orders/settle.ts). Parsed: one array of ids per person.
 */
export const peopleList = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .default("")
    .transform((s, ctx) => {
      const people: number[][] = [];
      for (const item of listItems(s)) {
        const ids = item.split("=").map((part) => idOf(part.trim()));
        const bad = ids.indexOf(null);
        if (bad >= 0) {
          ctx.addIssue({
            code: "custom",
            message: `"${item}" is not a Telegram user id or wa:<WhatsApp number> (one person's joined by "=")`,
          });
          return z.NEVER;
        }
        people.push(ids as number[]);
      }
      return people;
    }),
);

/** The ids of a people list, each once (a role is each chat's own). */
export const idList = peopleList.transform((people) => [...new Set(people.flat())]);

/** The parsed values of one concern's variables (its shape's output types). */
export type Parsed<S extends z.ZodRawShape> = z.output<z.ZodObject<S>>;
