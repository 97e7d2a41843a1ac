/** The admin's books (issue 15): the report, the low-float watch and the scheduled check. */
export { floatVerdict } from "./alerts.ts";
export { createBooksCheck } from "./check.ts";
export { createCollisionAlert } from "./collision-alert.ts";
export { type Crossings, createMemoryCrossings, createRedisCrossings } from "./crossing.ts";
export { createFiguresOffAlert, FIGURES_OFF_WINDOW_MS } from "./figures-off.ts";
export { createFloatWatch } from "./float-watch.ts";
export { createHourlyAlertsFlush } from "./hourly-flush.ts";
export { floatVerdictOf, type RaisedAlert, raisedAlerts } from "./raised.ts";
export { type Books, type BooksReport, createBooks, FLOAT_OPENING_ID } from "./report.ts";
