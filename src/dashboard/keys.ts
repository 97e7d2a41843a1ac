import { dashboardAuditMarks, dashboardFloatKey, keyspace } from "../redis/keyspace.ts";

/**
 * The back office's keys, from the product's keyspace (src/redis/keyspace.ts, where every key is
 * built), under the deployment's prefix. Each is a single key spread over a Cluster by its own
 * name: no script or transaction touches two of them, but the audit list and its marks (one slot).
 */
export function dashboardKeys(prefix: string) {
  const k = keyspace(prefix);
  return {
    link: k.dashboardLink,
    /** A spent link's session (its id's hash), for the rest of the link's life (links.ts). */
    spent: (tokenHash: string) => k.dashboardLink(`spent:${tokenHash}`),
    userLink: (userId: number) => k.dashboardUser(userId, "link"),
    session: k.dashboardSession,
    userSessions: (userId: number) => k.dashboardUser(userId, "sessions"),
    audit: k.dashboardAudit,
    auditViews: k.dashboardAuditViews,
    /** Set: the marks of the audit lines written once (audit.ts recordOnce), in `audit`'s slot. */
    auditMarks: dashboardAuditMarks(prefix),
    ack: k.dashboardAck,
    rate: k.dashboardRate,
    /** A float movement's proposal (JSON, never changed), PX 400 days (float-moves.ts). */
    floatMove: (id: string) => dashboardFloatKey(prefix, `move:${id}`),
    /** Its decision (JSON), set once (NX), PX 400 days. */
    floatDecision: (id: string) => dashboardFloatKey(prefix, `decision:${id}`),
    /** List of proposal ids, newest first, never trimmed (pushed once, when the proposal is created). */
    floatMoves: dashboardFloatKey(prefix, "list"),
    /** Set of the ids approved and not yet booked (added with the approval, removed once booked). */
    floatUnbooked: dashboardFloatKey(prefix, "unbooked"),
  };
}
export type DashboardKeys = ReturnType<typeof dashboardKeys>;
