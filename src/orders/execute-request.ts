import type { ExecuteRequest } from "../provider/requests.ts";
import { executeRequestSchema } from "../provider/requests.ts";
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
  const d = order.details;
  const base = {
    operatorId: order.operatorId,
    operatorTypeId: order.operatorTypeId,
    connectionNo: order.connectionNo,
    referenceNo: providerReference(order),
  };
  const candidate = (() => {
    switch (order.category) {
      case "internet":
        return {
          category: "internet",
          ...base,
          packageId: d.packageId,
          packageName: d.packageName,
          amountPaisa: order.amountPaisa,
        };
      case "datapack":
        return {
          category: "datapack",
          ...base,
          packageId: d.packageId,
          amountPaisa: order.amountPaisa,
        };
      case "dth":
        return { category: "dth", ...base, packageId: d.packageId };
      case "mobile":
      case "landline":
        return { category: order.category, ...base, amountPaisa: order.amountPaisa };
      case "india":
        return { category: "india", ...base, circleId: d.circleId, amountPaisa: order.amountPaisa };
      case "water":
        return {
          category: "water",
          ...base,
          officeCode: d.officeCode,
          monthId: d.monthId,
          amountPaisa: order.amountPaisa,
        };
      case "electricity":
        return {
          category: "electricity",
          ...base,
          officeCode: d.officeCode,
          scNo: d.scNo,
          phone: d.phone,
          amountPaisa: order.amountPaisa,
        };
    }
  })();
  return executeRequestSchema.parse(candidate);
}
