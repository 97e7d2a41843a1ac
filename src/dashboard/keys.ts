/**
 * The back office's Redis keys, all under the deployment's prefix. Each is a single key spread
 * over a Cluster by its own name: no script or transaction touches two of them.
 */
export function dashboardKeys(prefix: string) {
  const base = `${prefix}dash:`;
  return {
    /** String (JSON LinkRecord), PX the link's life: a login link by its token's hash. */
    link: (tokenHash: string) => `${base}link:${tokenHash}`,
    /** String (JSON SessionRecord), PX the absolute timeout: a session by its id's hash. */
    session: (idHash: string) => `${base}session:${idHash}`,
    /** Set of session-id hashes of one person (revoke all), PX the absolute timeout. */
    userSessions: (userId: number) => `${base}user:${userId}:sessions`,
    /** List of JSON AuditEntry, newest first, capped (audit.ts). */
    audit: `${base}audit`,
  };
}
export type DashboardKeys = ReturnType<typeof dashboardKeys>;
