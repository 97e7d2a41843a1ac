import { Hono, type MiddlewareHandler } from "hono";
import { csrf } from "hono/csrf";
import { HTTPException } from "hono/http-exception";
import { secureHeaders } from "hono/secure-headers";
import { DASHBOARD_PATH, type DashboardDeps } from "./deps.ts";
import { notice, page } from "./html.ts";
import { alertRoutes } from "./pages/alerts.ts";
import { auditExportRoutes } from "./pages/audit-export.ts";
import { balanceMoveRoutes } from "./pages/balance-move.ts";
import { booksRoutes } from "./pages/books.ts";
import { cashInRoutes } from "./pages/cash-ins.ts";
import { chartRoutes } from "./pages/chart.ts";
import { complaintRoutes } from "./pages/complaints.ts";
import { homeRoutes } from "./pages/home.ts";
import { loginRoutes } from "./pages/login.ts";
import { numberChangeRoutes } from "./pages/number-changes.ts";
import { orderRoutes } from "./pages/orders.ts";
import { priceRoutes } from "./pages/prices.ts";
import { topUpRoutes } from "./pages/topups.ts";
import { type DashboardEnv, dashboardParts } from "./parts.ts";
import { peopleRoutes } from "./people/index.ts";
import { DASHBOARD_CSS } from "./static.ts";

/**
 * The back office (issue 29) as one Hono app with its routes under /dashboard, for the public
 * listener: `app.route("/", createDashboard(deps))`. Everything is checked here, on the server:
 *  - a POST (login, logout) must come from our own origin (hono/csrf: Origin or Sec-Fetch-Site),
 *    with a form body, and every page but the login ones needs the session cookie (auth.ts);
 *  - secure headers with a CSP that allows no script at all and styles from our origin only;
 *  - the login link's GET and POST are rate limited per address and token prefix (rate-limit.ts);
 *  - nothing is cached, and a bad request gets a 4xx page, a crash a 500 page that tells nothing.
 */

const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i;

/** Unsafe methods carry a form, so the csrf check (which skips JSON) always applies. */
const formsOnly: MiddlewareHandler = async (c, next) => {
  if (c.req.method !== "GET" && c.req.method !== "HEAD") {
    if (!FORM_TYPES.test(c.req.header("content-type") ?? "")) return c.text("unsupported", 415);
  }
  await next();
};

const noStore: MiddlewareHandler = async (c, next) => {
  await next();
  c.header("Cache-Control", "no-store");
};

export function createDashboard(deps: DashboardDeps): Hono<DashboardEnv> {
  const parts = dashboardParts(deps);
  const publicOrigin = new URL(deps.publicUrl).origin;
  const app = new Hono<DashboardEnv>().basePath(DASHBOARD_PATH);

  app.use(
    noStore,
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'none'"],
        scriptSrc: ["'none'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'"],
        formAction: ["'self'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
      },
    }),
    // Our public origin (behind a TLS proxy the request's own URL is the proxy's hop) or the
    // request's own (loopback, local mode).
    csrf({ origin: (o, c) => o === publicOrigin || o === new URL(c.req.url).origin }),
    formsOnly,
  );

  app.get("/static/dashboard.css", (c) =>
    c.body(DASHBOARD_CSS, 200, { "Content-Type": "text/css; charset=utf-8" }),
  );
  // Before the login routes: a refused hit never reads a link.
  app.use("/login/:token", parts.limiter.entry);
  loginRoutes(app, parts);
  homeRoutes(app, parts);
  orderRoutes(app, parts);
  booksRoutes(app, parts);
  peopleRoutes(app, parts);
  // Money actions, alerts, prices and the audit export (h-actions).
  cashInRoutes(app, parts);
  topUpRoutes(app, parts);
  alertRoutes(app, parts);
  priceRoutes(app, parts);
  auditExportRoutes(app, parts);
  chartRoutes(app, parts);
  complaintRoutes(app, parts);
  // A changed WhatsApp number: the notices, and the balance moved to the new account (h-wamove).
  numberChangeRoutes(app, parts);
  balanceMoveRoutes(app, parts);
  app.all("*", (c) => {
    if (c.req.path === `${DASHBOARD_PATH}/`) return c.redirect(DASHBOARD_PATH, 308);
    return c.html(page("Not found", notice("No such page.", "error")), 404);
  });

  app.onError((err, c) => {
    if (err instanceof HTTPException) return err.getResponse();
    deps.logger.error({ err: { message: err.message, stack: err.stack } }, "dashboard failed");
    return c.html(page("Something went wrong", notice("Please try again.", "error")), 500);
  });
  return app;
}
