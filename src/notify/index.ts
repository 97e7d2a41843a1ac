export * from "./memory-queue.ts";
export * from "./notifier.ts";
export * from "./options.ts";
export * from "./pacer.ts";
export * from "./queue.ts";
export * from "./redis-queue.ts";
export * from "./render.ts";
export * from "./sent-log.ts";
