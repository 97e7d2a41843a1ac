// Telegram Bot API emulator: a Hono app a real grammY bot reaches through `client.apiRoot`,
// driven by tests, the web playground and benchmarks as the bot's users.
export type {
  BotApiEmulator,
  BotApiEmulatorOptions,
  MessageMatch,
  SentCallback,
  SentUpdate,
  UserDirectory,
} from "./emulator.ts";
export { createBotApiEmulator } from "./emulator.ts";
export type { FloodLimitsInput } from "./flood.ts";
export { FloodControl } from "./flood.ts";
export type { RunningEmulator } from "./server.ts";
export { startBotApiEmulatorServer } from "./server.ts";
export type {
  BotUser,
  CallbackAnswer,
  CommandsByScope,
  EmulatorEvent,
  EmulatorEventOf,
  EmulatorEventType,
  EmulatorStats,
  EmulatorUser,
  InlineButtonView,
  MessageKind,
  RecordedCall,
  TranscriptEntry,
  TypingState,
  UserInput,
} from "./types.ts";
export { EmulatorError } from "./types.ts";
