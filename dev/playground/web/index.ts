/*
 * The local web playground: a Telegram-like chat page at `/` and the JSON API it (and scripts and
 * tests) use to play the bot's users through the Bot API emulator, with a side panel showing the
 * embedded sandbox's wallet and webhook deliveries. The page is three static files read from disk
 * at start (no build step, no CDN). The API is documented in api.ts and docs/playground-api.md.
 */
import { readFileSync } from "node:fs";
import { Hono } from "hono";
import type { Role } from "../../../src/bot/deps.ts";
import type { SandboxControl } from "../../sandbox/index.ts";
import type { WhatsAppStandIn } from "../../whatsapp/index.ts";
import type { BotApiEmulator } from "../emulator/index.ts";
import { createPlaygroundApi } from "./api.ts";
import { type PlaygroundGuardOptions, playgroundGuard } from "./guard.ts";
import type { BooksSource, PlaygroundUser } from "./views.ts";

export { type PlaygroundGuardOptions, playgroundGuard } from "./guard.ts";
export type {
  BooksSource,
  CommandView,
  DeliveryView,
  MessageView,
  PlaygroundUser,
  SandboxView,
} from "./views.ts";
export { playgroundPhone } from "./views.ts";
export {
  PLAYGROUND_WHATSAPP_USERS,
  type WaMessageView,
  type WhatsAppUserView,
} from "./whatsapp.ts";

/** The demo users of the switcher. The agent and admin ids must be in AGENT_IDS / ADMIN_IDS. */
export const PLAYGROUND_CUSTOMER_ID = 1001;
export const PLAYGROUND_SECOND_CUSTOMER_ID = 1002;
export const PLAYGROUND_AGENT_ID = 2001;
export const PLAYGROUND_ADMIN_ID = 3001;

export interface PlaygroundOptions {
  emulator: BotApiEmulator;
  /** The embedded sandbox; absent when a real provider is configured (PROVIDER_URL). */
  sandbox?: SandboxControl;
  /** The sandbox account whose wallet and deliveries the side panel shows. */
  sandboxToken: string;
  /** The running configuration's roles; the switcher's agent and admin are taken from them. */
  agentIds: readonly number[];
  adminIds: readonly number[];
  /** Webhook deliveries the side panel lists; default 10. */
  deliveriesShown?: number;
  /** The product's books for the side panel (balances, journal), once the product is wired. */
  books?: () => BooksSource | undefined;
  /** Which Host values beside the own loopback ones are accepted (./guard.ts). */
  guard?: PlaygroundGuardOptions;
  /** The WhatsApp Cloud API stand-in: its customers join the switcher beside the Telegram users. */
  whatsapp?: WhatsAppStandIn | undefined;
}

const ASSETS = {
  "app.js": "text/javascript; charset=utf-8",
  "whatsapp.js": "text/javascript; charset=utf-8",
  "style.css": "text/css; charset=utf-8",
  "whatsapp.css": "text/css; charset=utf-8",
  "favicon.svg": "image/svg+xml",
} as const;

function readAsset(name: string): string {
  return readFileSync(new URL(`./assets/${name}`, import.meta.url), "utf8");
}

const ROLE_LABELS = { customer: "Customer", agent: "Agent", admin: "Admin" } as const;

/** The four users of the switcher, with the roles the running configuration gives them. */
export function demoUsers(
  opts: Pick<PlaygroundOptions, "agentIds" | "adminIds">,
): PlaygroundUser[] {
  // The same precedence as the bot's roleOf: an admin id wins over an agent id.
  const roleOf = (id: number): Role =>
    opts.adminIds.includes(id) ? "admin" : opts.agentIds.includes(id) ? "agent" : "customer";
  const people: [number, string][] = [
    [PLAYGROUND_CUSTOMER_ID, "Asha"],
    [PLAYGROUND_SECOND_CUSTOMER_ID, "Bikash"],
    [opts.agentIds[0] ?? PLAYGROUND_AGENT_ID, "Chandra"],
    [opts.adminIds[0] ?? PLAYGROUND_ADMIN_ID, "Deepa"],
  ];
  return people.map(([id, name]) => {
    const role = roleOf(id);
    return { id, name, role, label: ROLE_LABELS[role] };
  });
}

/** Routes to mount at the root of the main app: `/`, `/playground/assets/*`, `/playground/api/*`. */
export function createPlayground(opts: PlaygroundOptions): Hono {
  const users = demoUsers(opts);
  const html = readAsset("index.html");
  const assets = new Map(
    Object.entries(ASSETS).map(([name, type]) => [name, { body: readAsset(name), type }]),
  );

  const app = new Hono();
  // Scoped to the playground's own paths: the app is mounted at the root of the product's.
  const guard = playgroundGuard(opts.guard);
  for (const path of ["/", "/playground", "/playground/assets/*"]) app.use(path, guard);
  app.get("/", (c) =>
    c.html(html, 200, { "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff" }),
  );
  app.get("/playground", (c) => c.redirect("/"));
  app.get("/playground/assets/:name", (c) => {
    const asset = assets.get(c.req.param("name"));
    if (!asset) return c.text("not found", 404);
    return c.body(asset.body, 200, {
      "Content-Type": asset.type,
      "Cache-Control": "no-cache",
      "X-Content-Type-Options": "nosniff",
    });
  });
  app.route(
    "/playground/api",
    createPlaygroundApi({
      emulator: opts.emulator,
      sandbox: opts.sandbox,
      sandboxToken: opts.sandboxToken,
      users,
      deliveriesShown: opts.deliveriesShown ?? 10,
      ...(opts.books ? { books: opts.books } : {}),
      ...(opts.guard ? { guard: opts.guard } : {}),
      whatsapp: opts.whatsapp,
    }),
  );
  return app;
}
