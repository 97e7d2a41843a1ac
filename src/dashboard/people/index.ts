import type { Hono } from "hono";
import type { DashboardEnv, DashboardParts } from "../parts.ts";
import { blockRoutes } from "./block.ts";
import { customerRoutes } from "./customers.ts";
import { meRoutes } from "./me.ts";

/** Customers and agents (issue 29): admins' customer pages and blocking, an agent's own day. */
export function peopleRoutes(app: Hono<DashboardEnv>, parts: DashboardParts): void {
  customerRoutes(app, parts);
  blockRoutes(app, parts);
  meRoutes(app, parts);
}

export type { DashboardPeople } from "./port.ts";
