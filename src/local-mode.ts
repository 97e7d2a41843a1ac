import {
  createKhaltiStandIn,
  type KhaltiStandIn,
  STANDIN_SECRET_KEY,
} from "../dev/khalti/index.ts";
import { type BotApiEmulator, createBotApiEmulator } from "../dev/playground/emulator/index.ts";
import {
  type BooksSource,
  createPlayground,
  demoUsers,
  PLAYGROUND_ADMIN_ID,
  PLAYGROUND_AGENT_ID,
  PLAYGROUND_CUSTOMER_ID,
  PLAYGROUND_SECOND_CUSTOMER_ID,
  PLAYGROUND_WHATSAPP_USERS,
  type PlaygroundGuardOptions,
  playgroundGuard,
  playgroundPhone,
} from "../dev/playground/web/index.ts";
import {
  createSandbox,
  loadSandboxSettings,
  type Sandbox,
  type SandboxOptions,
  type SandboxSettings,
} from "../dev/sandbox/index.ts";
import { createWhatsAppStandIn, type WhatsAppStandIn } from "../dev/whatsapp/index.ts";
import { type Accounts, phoneSchema } from "./accounts/index.ts";
import type { Config } from "./config/index.ts";
import type { WhatsAppSettings } from "./config/whatsapp.ts";
import type { createHttpApp } from "./http/app.ts";
import { account, type JournalEntry, type LedgerStore } from "./ledger/index.ts";
import type { Logger } from "./logger.ts";
import { rupeesToPaisa } from "./money.ts";
import { chatIdOfWaId } from "./whatsapp/chat-ids.ts";

/**
 * Local mode as one plug: the embedded sandbox aggregator, the Bot API emulator and the playground
 * page, with the policy that goes with them (the playground token, the demo roles, the emulator
 * answering before the product is ready). The composition root loads this module with a dynamic
 * import only when local mode is used, so a production process never loads the harness; no other
 * product module imports the sandbox or the playground.
 */

/** The bot token of the local playground; the emulator accepts only this one. */
export const PLAYGROUND_TOKEN = "7000000001:local-playground-token";

/** Overrides of the embedded sandbox (delays, faults) for tests and demos. */
export type SandboxOverrides = Partial<Omit<SandboxOptions, "accounts">>;

const SANDBOX_MOUNT = "/sandbox/api/v1";
const EMULATOR_MOUNT = "/telegram";
const KHALTI_MOUNT = "/khalti";
const WHATSAPP_MOUNT = "/whatsapp-api";

/** The local WhatsApp number's credentials: the stand-in accepts only these. */
const STANDIN_WHATSAPP = {
  phoneNumberId: "100000000000001",
  accessToken: "local-whatsapp-access-token",
  appSecret: "local-whatsapp-app-secret",
  verifyToken: "local-whatsapp-verify-token",
};

export interface LocalModeContext {
  config: Config;
  app: ReturnType<typeof createHttpApp>;
  /** The process's own URL: the sandbox's webhook target and the bot's API root point at it. */
  selfUrl: string;
  logger: Logger;
  now?: () => number;
  sandbox?: SandboxOverrides;
}

export type LocalMode = ReturnType<typeof startLocalMode>;

/**
 * Mounts what the configuration asks for on the app. Throws a ConfigError for a bad SANDBOX_*
 * variable (the sandbox reads its own settings: dev/sandbox/settings.ts).
 */
export function startLocalMode(ctx: LocalModeContext) {
  const { config, app, selfUrl } = ctx;
  const settings = loadSandboxSettings(config.sandbox.env);
  if (config.http.hostRefused) {
    ctx.logger.warn(
      { host: config.http.hostRefused },
      "the playground listens on loopback only; set PLAYGROUND_PUBLIC=1 to serve it on HOST",
    );
  }
  const sandbox = config.mode.embeddedSandbox ? embedSandbox(ctx, settings) : undefined;
  const guard = guardOf(config, selfUrl);
  if (sandbox) {
    // The product calls it at its own loopback URL; nobody else, also not through PUBLIC_URL with
    // a real bot (its admin routes show every delivery, numbers included, under a known token).
    app.use(`${SANDBOX_MOUNT}/*`, playgroundGuard({ ...guard, requireJson: false }));
    app.route(SANDBOX_MOUNT, sandbox.app);
  }
  // Khalti's stand-in credits balances nobody paid: only when the whole product is local (its
  // orders go to the embedded sandbox), never beside a real provider (PLAYGROUND=1) or a real bot,
  // and not when KHALTI_BASE_URL names the real Khalti (or Khalti's own sandbox).
  let khalti: KhaltiStandIn | undefined;
  if (config.mode.local && !config.topUp.khalti) {
    khalti = createKhaltiStandIn({
      secretKey: STANDIN_SECRET_KEY,
      publicBase: `${selfUrl}${KHALTI_MOUNT}`,
      ...(ctx.now ? { now: ctx.now } : {}),
    });
    // The payer's page and the API answer this machine's loopback names only, like the sandbox.
    app.use(`${KHALTI_MOUNT}/*`, playgroundGuard({ ...guard, requireJson: false }));
    app.route(KHALTI_MOUNT, khalti.app);
  }
  const roles = rolesOf(config);
  const whatsapp = config.mode.playground && !config.whatsapp ? embedWhatsApp(ctx) : undefined;
  if (whatsapp) {
    app.use(`${WHATSAPP_MOUNT}/*`, playgroundGuard({ ...guard, requireJson: false }));
    app.route(WHATSAPP_MOUNT, whatsapp.standIn.app);
  }
  let emulator: BotApiEmulator | undefined;
  // The side panel reads the product's books once the product is wired (attachBooks).
  let books: BooksSource | undefined;
  if (config.mode.playground) {
    emulator = createBotApiEmulator({ token: PLAYGROUND_TOKEN });
    // The emulator too: a foreign page must not setWebhook it to itself, nor read getUpdates.
    app.use(`${EMULATOR_MOUNT}/*`, playgroundGuard({ ...guard, requireJson: false }));
    app.route(EMULATOR_MOUNT, emulator.app);
    app.route(
      "/",
      createPlayground({
        emulator,
        sandbox,
        sandboxToken: config.sandbox.token,
        ...roles,
        books: () => books,
        guard,
        whatsapp: whatsapp?.standIn,
      }),
    );
  }
  return {
    sandbox,
    emulator,
    roles,
    /** The Khalti stand-in (tests drive its faults and refunds), when it replaces Khalti. */
    khaltiStandIn: khalti,
    /** The gateway to use instead of config.topUp.khalti: the stand-in. */
    khalti: khalti
      ? { baseUrl: `${selfUrl}${KHALTI_MOUNT}/api/v2`, secretKey: STANDIN_SECRET_KEY }
      : undefined,
    /** The provider to use instead of config.provider: the embedded sandbox. */
    provider: sandbox
      ? { baseUrl: `${selfUrl}${SANDBOX_MOUNT}`, token: config.sandbox.token }
      : undefined,
    /** The WhatsApp Cloud API stand-in (tests and the playground drive its phones). */
    whatsappStandIn: whatsapp?.standIn,
    /** The WhatsApp number to use instead of WHATSAPP_*: the stand-in's. */
    whatsapp: whatsapp?.settings,
    /** The Bot API to use instead of Telegram's: the emulator. */
    botApi: emulator
      ? { token: PLAYGROUND_TOKEN, apiRoot: `${selfUrl}${EMULATOR_MOUNT}` }
      : undefined,
    /** Served before the product is ready: the bot's own getMe asks the emulator. */
    servesEarly: (req: Request) =>
      emulator !== undefined && new URL(req.url).pathname.startsWith(`${EMULATOR_MOUNT}/`),
    /**
     * Once the product is wired: the side panel shows its books, and in prepaid mode with the
     * embedded sandbox the demo users (the built-in ids only) are registered (each with a phone of its own) and the
     * customers and the agent get a demo credit from merchant:funding, kind demo_credit, so a
     * newcomer orders at once and the agent can cash in. The transfer ids are fixed: once per
     * ledger, also across restarts on Redis.
     */
    async attachBooks(parts: { ledger: LedgerStore; accounts: Accounts; logger: Logger }) {
      if (!config.mode.playground) return;
      const { ledger, accounts } = parts;
      books = booksSource(ledger, accounts, roles);
      if (!(config.mode.embeddedSandbox && config.accessMode === "prepaid")) return;
      // Only the playground's own demo ids: a configured agent or admin gets no free money.
      const demoIds = [
        PLAYGROUND_CUSTOMER_ID,
        PLAYGROUND_SECOND_CUSTOMER_ID,
        PLAYGROUND_AGENT_ID,
        PLAYGROUND_ADMIN_ID,
      ];
      for (const u of demoUsers(roles).filter((d) => demoIds.includes(d.id))) {
        await accounts.register(u.id, phoneSchema.parse(playgroundPhone(u.id)));
        if (u.role === "admin") continue;
        const r = await accounts.demoCredit({
          id: `demo-credit-${u.id}`,
          to: u.role === "agent" ? "agent" : "customer",
          userId: u.id,
          amountPaisa: u.role === "agent" ? DEMO_AGENT_CREDIT : DEMO_CUSTOMER_CREDIT,
        });
        if (!r.ok) parts.logger.warn({ userId: u.id, code: r.code }, "demo credit refused");
      }
      // The WhatsApp customers too: registered by their number, as their first message would.
      if (whatsapp) await creditWhatsAppDemo(parts.accounts, parts.logger);
    },
    /** Once the product is ready: the sandbox starts delivering its webhooks to us. */
    async connect(logger: Logger) {
      if (!sandbox) return;
      const connected = await sandbox.connectWebhook(config.sandbox.token);
      logger.info({ connected }, "sandbox webhook connected");
    },
    close() {
      emulator?.close();
      void whatsapp?.standIn.close();
      sandbox?.close();
    },
  };
}

/**
 * The WhatsApp number of local mode: the stand-in on our own server, and the settings the product
 * would read from WHATSAPP_* pointing at it (the webhook on the product's usual path).
 */
function embedWhatsApp(ctx: LocalModeContext): {
  standIn: WhatsAppStandIn;
  settings: WhatsAppSettings;
} {
  const webhookPath = "/webhooks/whatsapp";
  const standIn = createWhatsAppStandIn({
    ...STANDIN_WHATSAPP,
    webhookUrl: `${ctx.selfUrl}${webhookPath}`,
    ...(ctx.now ? { now: ctx.now } : {}),
    logger: ctx.logger,
  });
  const settings: WhatsAppSettings = {
    ...STANDIN_WHATSAPP,
    apiRoot: `${ctx.selfUrl}${WHATSAPP_MOUNT}`,
    apiVersion: "v24.0",
    webhookPath,
    webhookMaxBodyBytes: 1024 * 1024,
    template: { name: "order_update", languages: { en: "en_US", hi: "hi", ne: "en_US" } },
    api: { timeoutMs: 10_000, attempts: 3, maxBackoffMs: 2_000 },
    messagesPerSecond: 80,
  };
  return { standIn, settings };
}

async function creditWhatsAppDemo(accounts: Accounts, logger: Logger) {
  for (const u of PLAYGROUND_WHATSAPP_USERS) {
    const userId = chatIdOfWaId(u.waId);
    if (userId === null) continue;
    if ((await accounts.userByPhone(phoneSchema.parse(u.waId))) === null)
      await accounts.register(userId, phoneSchema.parse(u.waId), {
        name: u.name,
        channel: "whatsapp",
      });
    const r = await accounts.demoCredit({
      id: `demo-credit-wa-${u.waId}`,
      to: "customer",
      userId,
      amountPaisa: DEMO_CUSTOMER_CREDIT,
    });
    if (!r.ok) logger.warn({ userId, code: r.code }, "demo credit refused");
  }
}

/** The playground's demo credits: enough for a few orders, and for the agent to cash in. */
const DEMO_CUSTOMER_CREDIT = rupeesToPaisa(5_000);
const DEMO_AGENT_CREDIT = rupeesToPaisa(20_000);

function booksSource(
  ledger: LedgerStore,
  accounts: Accounts,
  roles: { agentIds: readonly number[]; adminIds: readonly number[] },
): BooksSource {
  return {
    async people(ids) {
      return Promise.all(
        ids.map(async (id) => {
          const acc =
            roles.agentIds.includes(id) && !roles.adminIds.includes(id)
              ? account.agent(id)
              : account.customer(id);
          const b = await ledger.balance(acc);
          return {
            id,
            phone: await accounts.phoneOf(id),
            availablePaisa: b.availablePaisa,
            heldPaisa: b.heldPaisa,
          };
        }),
      );
    },
    async journal(limit) {
      // A playground's journal is short: read it all, keep the newest.
      const all: JournalEntry[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await ledger.journal(after ? { after } : {});
        all.push(...page.entries);
        if (!page.next) break;
        after = page.next;
      }
      return all.slice(-limit).reverse();
    },
  };
}

function embedSandbox(ctx: LocalModeContext, settings: SandboxSettings): Sandbox {
  const { config } = ctx;
  return createSandbox({
    accounts: [
      {
        token: config.sandbox.token,
        webhook: { url: `${ctx.selfUrl}${config.webhook.path}`, secret: config.webhook.secret },
      },
    ],
    delays: settings.delays,
    rateLimitPerSecond: settings.rateLimitPerSecond,
    faults: settings.faults,
    ntcMobileMaxAmount: config.catalog.ntcMobileMaxAmount,
    waterOperatorId: config.catalog.waterOperatorId,
    electricityOperatorId: config.catalog.electricityOperatorId,
    electricityOperatorTypeId: config.catalog.electricityOperatorTypeId,
    indiaOperatorIds: config.catalog.indiaOperatorIds,
    indiaMobileOperatorTypeId: config.catalog.indiaMobileOperatorTypeId,
    indiaDthOperatorTypeId: config.catalog.indiaDthOperatorTypeId,
    logger: ctx.logger,
    ...(ctx.now ? { now: ctx.now } : {}),
    ...ctx.sandbox,
  });
}

/**
 * The Host values the playground answers besides its own loopback names: the server's own URL (a
 * named HOST), and with PLAYGROUND_PUBLIC=1 an IP address of this machine and PUBLIC_URL's host.
 */
function guardOf(config: Config, selfUrl: string): PlaygroundGuardOptions {
  const hosts = [new URL(selfUrl).host];
  if (config.mode.playgroundPublic && config.http.publicUrl)
    hosts.push(new URL(config.http.publicUrl).host);
  return { public: config.mode.playgroundPublic, hosts };
}

/**
 * The playground's demo agent and admin get their roles unless real ids are configured, and only
 * against the embedded sandbox: with a real provider (PLAYGROUND=1) roles must be named on purpose.
 */
function rolesOf(config: Config): { agentIds: number[]; adminIds: number[] } {
  const demo = config.mode.playground && config.mode.embeddedSandbox;
  const { agentIds, adminIds } = config.bot;
  return {
    agentIds: demo && agentIds.length === 0 ? [PLAYGROUND_AGENT_ID] : agentIds,
    adminIds: demo && adminIds.length === 0 ? [PLAYGROUND_ADMIN_ID] : adminIds,
  };
}
