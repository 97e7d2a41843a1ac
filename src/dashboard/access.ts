import type { DashboardDeps } from "./deps.ts";
import { dashboardRole } from "./deps.ts";
import type { IssuedLink } from "./links.ts";
import { dashboardParts } from "./parts.ts";

/**
 * What the rest of the product asks of the back office: a login link for someone who sent
 * /dashboard (null when their role may not open it), and ending every session of a person whose
 * role was taken away. Over the same Redis as createDashboard, so any process may answer.
 */
export interface DashboardAccess {
  issueLink(userId: number): Promise<IssuedLink | null>;
  revokeAll(userId: number): Promise<number>;
}

export function dashboardAccess(deps: DashboardDeps): DashboardAccess {
  const parts = dashboardParts(deps);
  return {
    async issueLink(userId) {
      if (!dashboardRole(deps.roleOf(userId))) return null;
      return parts.links.issue(userId);
    },
    revokeAll: (userId) => parts.sessions.revokeAll(userId),
  };
}
