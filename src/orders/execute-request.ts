import type { ExecuteRequest } from "../provider/index.ts";
import type { Order } from "./model.ts";
import type { OrderParts } from "./parts.ts";

/** The reference_no the provider knows the order by (execute, status query, webhook order_id). */
export function providerReference(order: Pick<Order, "reference" | "executeReference">): string {
  return order.executeReference ?? order.reference;
}

/**
 * The provider client's execute request for an order, built by its category's part; validated, so
 * an order that could never be executed is refused at `place` rather than discovered at submit.
 */
export function toExecuteRequest(order: Order, parts: OrderParts): ExecuteRequest {
  const part = parts.get(order.category);
  if (!part) throw new Error(`category: no category ${order.category} is registered`);
  return part.executeRequest(order, providerReference(order));
}
