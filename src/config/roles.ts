import { z } from "zod";
import { emptyToUndefined, idList, type Parsed, peopleList } from "./fields.ts";

/** Who is who (agents, admins, staff) and who pays for an order. */
export const rolesEnv = {
  AGENT_IDS: idList,
  ADMIN_IDS: peopleList,
  /**
   * Who pays for an order. prepaid (default): anyone may register (by sharing their own phone
   * contact) and orders from a balance that covers the price, held at confirm. staff: only the
   * listed users (AGENT_IDS, ADMIN_IDS, STAFF_IDS) may order, and the merchant's wallet pays.
   * The transitional "open" (anyone orders, nobody is charged) is gone: it is refused by name.
   */
  ACCESS_MODE: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default("prepaid")
      .pipe(
        z.enum(["prepaid", "staff"], {
          error: (i) =>
            i.input === "open"
              ? 'ACCESS_MODE=open was transitional and is gone (anyone ordered at the merchant\'s cost): use "prepaid" or "staff" with STAFF_IDS'
              : 'must be "prepaid" or "staff"',
        }),
      ),
  ),
  /** Who may order in staff mode besides agents and admins. */
  STAFF_IDS: idList,
};
type RolesEnv = Parsed<typeof rolesEnv>;

export function rolesSettings(e: RolesEnv) {
  return {
    roles: { agentIds: e.AGENT_IDS, adminIds: [...new Set(e.ADMIN_IDS.flat())] },
    /** The admins' ids by person (`123=wa:+977…`): a person approves no settlement of their own. */
    adminPeople: e.ADMIN_IDS,
    accessMode: e.ACCESS_MODE,
    /** Staff mode: who may order besides agents and admins (STAFF_IDS). */
    staffIds: e.STAFF_IDS,
  };
}
