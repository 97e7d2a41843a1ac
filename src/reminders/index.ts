export * from "./model.ts";
export * from "./schedule.ts";
export * from "./store.ts";
export * from "./worker.ts";
