import { z } from "zod";
import {
  account,
  type Bill,
  type BillCheck,
  type ProviderClient,
  packageBody,
} from "../../provider/index.ts";

/** An electricity bill check (spec 4.3): the account, the SC number, the phone and the office. */
const electricityBillQuerySchema = z.object({
  ...account,
  phone: z.string().trim().min(1),
  scNo: z.string().trim().min(1),
  officeCode: z.string().trim().min(1),
});
export type ElectricityBillQuery = z.infer<typeof electricityBillQuerySchema>;

/** Body of an electricity bill check; the electricity execute sends the same plus the amount. */
export function electricityBillBody(q: ElectricityBillQuery) {
  return { ...packageBody(q), phone: q.phone, sc_no: q.scNo, office_code: q.officeCode };
}

const electricityBill: BillCheck<ElectricityBillQuery> = {
  input: electricityBillQuerySchema,
  body: electricityBillBody,
};

/** The electricity bill of an account, as the provider has it. */
export function checkElectricityBill(
  provider: Pick<ProviderClient, "checkBill">,
  q: ElectricityBillQuery,
): Promise<Bill> {
  return provider.checkBill(electricityBill, q);
}
