import { Hono } from "hono";
import { GatewayError, paymentIdSchema } from "../gateway/port.ts";
import type { Logger } from "../logger.ts";
import type { TopUps } from "./service.ts";

/**
 * The page the payer's browser comes back to after the gateway's checkout. The redirect is not
 * authenticated (anyone can forge one), so its query is never believed: only the pidx is read, and
 * only to ask the gateway (a lookup) before anything is credited. The page says one of three
 * things and nothing else: no amount, no balance, no name, no ids, so a forged or guessed pidx
 * learns nothing. The bot's push carries the details, to the chat that started the top-up.
 */

type Outcome = "received" | "not_completed" | "confirming";

const TEXT: Record<Outcome, { title: string; en: string; ne: string }> = {
  received: {
    title: "Payment received",
    en: "Payment received. You can return to the chat.",
    ne: "भुक्तानी प्राप्त भयो। अब च्याटमा फर्कनुहोस्।",
  },
  not_completed: {
    title: "Payment not completed",
    en: "Payment not completed. Nothing was added.",
    ne: "भुक्तानी पूरा भएन। केही थपिएन।",
  },
  confirming: {
    title: "Confirming payment",
    en: "We are confirming your payment. The bot will message you in the chat.",
    ne: "भुक्तानी पुष्टि हुँदैछ। बोटले च्याटमा सन्देश पठाउनेछ।",
  },
};

function page(o: Outcome): string {
  const t = TEXT[o];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${t.title}</title></head>
<body><main><h1 data-outcome="${o}">${t.title}</h1><p>${t.en}</p><p lang="ne">${t.ne}</p></main></body></html>`;
}

export function topUpReturnRoutes(opts: { topUps: TopUps; logger: Logger }) {
  const app = new Hono();
  app.get("/", async (c) => {
    const headers = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };
    const pidx = paymentIdSchema.safeParse(c.req.query("pidx"));
    if (!pidx.success) return c.html(page("not_completed"), 400, headers);
    let outcome: Outcome = "not_completed";
    try {
      const t = await opts.topUps.confirm(opts.topUps.gateway, pidx.data);
      if (t?.status === "completed") outcome = "received";
      else if (t?.status === "initiated" || t?.status === "pending") outcome = "confirming";
    } catch (err) {
      if (!(err instanceof GatewayError)) throw err;
      opts.logger.warn(
        { kind: err.kind },
        "top-up lookup at return failed; the reconciler retries",
      );
      outcome = "confirming";
    }
    return c.html(page(outcome), 200, headers);
  });
  return app;
}
