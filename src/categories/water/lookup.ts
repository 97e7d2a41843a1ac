import { z } from "zod";
import {
  account,
  type Bill,
  type BillCheck,
  type ProviderClient,
  packageBody,
} from "../../provider/index.ts";

/** A water bill check (spec 4.3): the account, the Nepali month and the office. */
const waterBillQuerySchema = z.object({
  ...account,
  monthId: z.number().int().min(1).max(12),
  officeCode: z.string().trim().min(1),
});
export type WaterBillQuery = z.infer<typeof waterBillQuerySchema>;

/** Body of a water bill check; the water execute sends the same plus the amount. */
export function waterBillBody(q: WaterBillQuery) {
  return {
    ...packageBody(q),
    month_id: String(q.monthId),
    office_code: q.officeCode,
  };
}

const waterBill: BillCheck<WaterBillQuery> = { input: waterBillQuerySchema, body: waterBillBody };

/** The water bill of an account for a month, as the provider has it. */
export function checkWaterBill(
  provider: Pick<ProviderClient, "checkBill">,
  q: WaterBillQuery,
): Promise<Bill> {
  return provider.checkBill(waterBill, q);
}
