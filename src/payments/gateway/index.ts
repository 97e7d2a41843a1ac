export { createKhaltiGateway } from "./khalti.ts";
export * from "./port.ts";
