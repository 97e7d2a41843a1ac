export { createKhaltiGateway, type KhaltiOptions } from "./khalti.ts";
export * from "./port.ts";
