import { COLLISION_KIND, COLLISION_OPEN_KIND } from "./collision-alert.ts";
import { FIGURES_OFF_KIND } from "./figures-off.ts";
import { createHourlyFlush, type HourlyAlertDeps } from "./hourly-alert.ts";
import { OUR_SIDE_KIND } from "./our-side-alert.ts";

/**
 * The flush of the hourly alerts (figures off, reference collisions closed or left open,
 * executes refused on our side): the orders counted in an
 * hour are told once it ended, whether or not another order comes (session 28). `at`: now.
 */
export function createHourlyAlertsFlush(deps: HourlyAlertDeps): (at: number) => Promise<boolean[]> {
  return createHourlyFlush(deps, [
    FIGURES_OFF_KIND,
    COLLISION_KIND,
    COLLISION_OPEN_KIND,
    OUR_SIDE_KIND,
  ]);
}
