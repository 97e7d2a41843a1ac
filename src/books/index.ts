/** The admin's books (issue 15): the report, the low-float watch and the scheduled check. */
export { createBooksCheck } from "./check.ts";
export { type Crossings, createMemoryCrossings, createRedisCrossings } from "./crossing.ts";
export { createFloatWatch, type FloatWatchOptions } from "./float-watch.ts";
export {
  type Books,
  type BooksDeps,
  type BooksReport,
  createBooks,
  FLOAT_OPENING_ID,
  type LastCheck,
} from "./report.ts";
