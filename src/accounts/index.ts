export * from "./access.ts";
export * from "./phone.ts";
export * from "./service.ts";
export * from "./store.ts";
