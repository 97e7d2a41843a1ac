import type { ExecuteRequest } from "../provider/requests.ts";
import { executeRequestSchema } from "../provider/requests.ts";
import { executeFieldsOf } from "./categories/index.ts";
import type { Order } from "./model.ts";

/** The reference_no the provider knows the order by (execute, status query, webhook order_id). */
export function providerReference(order: Pick<Order, "reference" | "executeReference">): string {
  return order.executeReference ?? order.reference;
}

/**
 * The provider client's execute request for an order; validated, so an order that could never be
 * executed is refused at `place` rather than discovered at submit time.
 */
export function toExecuteRequest(order: Order): ExecuteRequest {
  return executeRequestSchema.parse({
    category: order.category,
    operatorId: order.operatorId,
    operatorTypeId: order.operatorTypeId,
    connectionNo: order.connectionNo,
    referenceNo: providerReference(order),
    // The rest is the category's own: src/orders/categories/<cat>.ts.
    ...executeFieldsOf(order),
  });
}
