/**
 * The layers the README draws, checked in CI (`npm run deps`): no import cycle between files, no
 * upward import, and product code (src/) never imports the development harness (dev/) except the
 * composition root's one lazy load of local mode.
 */
const layer = (name, path, mayNotImport, comment, except) => ({
  name: `layer-${name}`,
  comment,
  severity: "error",
  from: { path },
  to: except ? { path: mayNotImport, pathNot: except } : { path: mayNotImport },
});

/**
 * Each category's order part (details schema, execute request), its provider lookups (a bill
 * check's arguments and body) and their shared helpers: pure, so the registry can hand them to the
 * orders without the chat coming along.
 */
const ORDER_PARTS = "^src/categories/([^/]+/(order|lookup)|shared/order-part)\\.ts$";

module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      comment: "An import cycle makes the layers meaningless and the load order fragile.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "product-not-harness",
      comment: "src/ is the product; dev/ (sandbox, playground, emulator) is development harness.",
      severity: "error",
      // The one exception: the plug the composition root loads lazily, only in local mode.
      from: { path: "^src/", pathNot: "^src/local-mode\\.ts$" },
      to: { path: "^dev/" },
    },
    {
      name: "product-not-tests",
      severity: "error",
      from: { path: "^(src|dev)/" },
      to: { path: "^(test|bench)/" },
    },
    layer(
      "base",
      "^src/(logger|money|redis|telegram|ledger)",
      "^src/(payments|config|pricing|catalog|provider|orders|notify|webhook|bot|categories|http|system|main|accounts|saved)",
      "Logging, money, Redis, the Bot API transport and the books know nothing of the product's parts.",
    ),
    layer(
      "accounts",
      "^src/accounts/",
      "^src/(config|pricing|catalog|provider|orders|notify|webhook|bot|categories|http|system|main)",
      "Who is who beside the books (phones, receipts, cash-in and reversal): above the ledger only.",
    ),
    layer(
      "saved",
      "^src/saved/",
      "^src/(payments|config|pricing|provider|orders|notify|webhook|bot|categories|http|system|main|accounts|books)",
      "Saved numbers and billers: a store beside the chat, on the catalogue's categories only.",
    ),
    layer(
      "config",
      "^src/(config|pricing)",
      "^src/(payments|provider|orders|notify|webhook|bot|categories|http|system|main)",
      "The configuration and the price schedule read only the catalogue's data.",
    ),
    layer(
      "catalog",
      "^src/catalog/",
      "^src/(payments|provider|orders|notify|webhook|bot|categories|http|system|main)",
      "The catalogue is pure data and rules.",
    ),
    layer(
      "provider",
      "^src/provider/",
      "^src/(payments|orders|notify|webhook|bot|categories|http|system|main)",
      "The aggregator client knows nothing of orders or chats.",
    ),
    layer(
      "orders",
      "^src/orders/",
      "^src/(notify|webhook|bot|categories|http|system|main)",
      "The money path below the chat and the transports.",
    ),
    layer(
      "order-parts",
      ORDER_PARTS,
      "^(src/(notify|webhook|bot|categories|http|system|main|saved|accounts|payments)|conversations/)",
      "A category's order part is pure: the order's and the provider's types, no stores, no flows.",
      ORDER_PARTS,
    ),
    {
      name: "category-not-category",
      comment:
        "A category is one folder: it imports no other category's folder (shared helpers are in src/categories/shared/).",
      severity: "error",
      from: { path: "^src/categories/([^/]+)/", pathNot: "^src/categories/shared/" },
      to: {
        path: "^src/categories/[^/]+/",
        pathNot: ["^src/categories/$1/", "^src/categories/shared/"],
      },
    },
    {
      name: "shared-not-category",
      comment: "The categories' shared helpers name no category: none imports a category's folder.",
      severity: "error",
      from: { path: "^src/categories/shared/" },
      to: { path: "^src/categories/", pathNot: "^src/categories/shared/" },
    },
    layer(
      "telegram",
      "^src/telegram/",
      "^src/(payments|catalog|provider|orders|notify|webhook|bot|categories|http|system|main)",
      "The bounded Bot API transport serves the bot and the notifier alike.",
    ),
    layer(
      "payment-gateway",
      "^src/payments/gateway/",
      "^src/(payments|orders|notify|webhook|bot|categories|http|system|main)",
      "The payment-gateway port and its adapters know nothing of top-ups or chats.",
      "^src/payments/gateway/",
    ),
    layer(
      "payments",
      "^src/payments/",
      "^src/(orders|notify|webhook|bot|categories|http|system|main)",
      "Top-ups sit on the gateway port and the books, beside the orders, below the chat.",
    ),
    layer(
      "complaints",
      "^src/complaints/",
      "^(src/(payments|config|pricing|catalog|provider|notify|webhook|bot|categories|http|system|main|accounts|saved|books|dashboard|whatsapp)|conversations/)",
      "Complaints sit on the orders and the books, below the chat and the back office.",
    ),
    layer(
      "notify-webhook",
      "^src/(notify|webhook)/",
      "^src/(bot|categories|http|system|main)",
      "Workers and the provider webhook sit on orders, below the chat.",
    ),
    layer(
      "books",
      "^src/books/",
      "^src/(bot|categories|http|system|main)",
      "The admin's books sit on the ledger, orders and the outbox, below the chat.",
    ),
    layer(
      "bot-core",
      "^src/bot/",
      "^(src/categories/|conversations/)",
      "The engine: the features are injected into createBot by the composition root (conversations import the engine, never the reverse).",
    ),
    layer(
      "bot",
      "^(src/(bot|categories)/|conversations/)",
      "^src/(http|system|main)",
      "The chat layer never reaches into the composition root.",
    ),
    {
      name: "conversation-folders-apart",
      comment:
        "A feature's conversation folder (conversations/<feature>/) imports the engine and itself; another feature only through the shared ids (conversations/ids.ts), never its folder.",
      severity: "error",
      from: { path: "^conversations/([^/]+)/" },
      to: { path: "^conversations/", pathNot: ["^conversations/$1/", "^conversations/ids\\.ts$"] },
    },
    {
      name: "conversations-through-index",
      comment:
        "Only the composition root (src/system/) takes the features, and only from conversations/index.ts; src/bot never (layer-bot-core).",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^conversations/", pathNot: "^conversations/index\\.ts$" },
    },
    {
      name: "conversations-to-composition-root",
      comment: "Nothing in src/ but the composition root imports the conversations.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/system/" },
      to: { path: "^conversations/" },
    },
    layer(
      "whatsapp",
      "^src/whatsapp/",
      "^(src/(payments|config|pricing|catalog|provider|orders|notify|webhook|bot|categories|http|system|main|books|saved|dashboard)|conversations/)",
      "The WhatsApp channel (webhook, queue, router, renderer, client) sits on accounts and Redis; it reaches the chat only through what the composition root hands it (bot.handleUpdate). It shares the webhooks' body reader.",
      "^src/webhook/read-body\\.ts$",
    ),
    layer(
      "reminders",
      "^src/reminders/",
      "^(src/(payments|provider|notify|webhook|bot|categories|http|system|main|dashboard|whatsapp|accounts|books)|conversations/)",
      "Reminders (what successful orders leave, when one is due, the worker) sit on the orders' model and Redis; the words, the buttons and the paced send are handed in by the composition root.",
    ),
    layer("http", "^src/http/", "^src/(system|main)", "Operational endpoints only."),
    layer(
      "dashboard",
      "^src/dashboard/",
      "^(src/(bot|categories|system|main|notify|webhook|provider|payments/gateway)|conversations/)",
      "The back office reads the stores and the books and acts through the services' own operations (accounts, top-ups); it knows nothing of the chat, the workers or the gateway's adapters.",
    ),
    {
      name: "dashboard-only-from-root",
      comment:
        "Only the composition root mounts the back office; the chat gets its link through an injected port.",
      severity: "error",
      from: { path: "^(src|conversations)/", pathNot: "^src/(dashboard/|system|main)" },
      to: { path: "^src/dashboard/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
  },
};
