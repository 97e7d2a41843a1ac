export * from "./codec.ts";
export * from "./payload.ts";
export * from "./routes.ts";
