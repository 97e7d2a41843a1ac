export * from "./access.ts";
export * from "./access-flags.ts";
export * from "./blocked.ts";
export * from "./links.ts";
export * from "./phone.ts";
export * from "./service.ts";
export * from "./statement.ts";
export * from "./store.ts";
