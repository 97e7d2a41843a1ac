export * from "./logic.ts";
export * from "./model.ts";
export * from "./store.ts";
