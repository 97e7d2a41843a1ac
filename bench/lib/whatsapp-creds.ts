/** The WhatsApp number of the benchmark: the stand-in (driver) and the product (helper) share it. */
export const WA_BENCH = {
  phoneNumberId: "106540352242922",
  accessToken: "bench-whatsapp-access-token",
  appSecret: "bench-whatsapp-app-secret-0123456789",
  verifyToken: "bench-whatsapp-verify-token",
  displayPhoneNumber: "15550783881",
} as const;
