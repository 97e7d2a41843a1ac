import type { LocalMode, LocalModeContext } from "../local-mode.ts";
import type { Base } from "./base.ts";

/**
 * Local mode is one plug (src/local-mode.ts), imported only when the configuration uses it, so a
 * production process (real provider, real Telegram) never loads the sandbox or the emulator.
 */
export async function loadLocalMode(
  base: Base,
  at: Pick<LocalModeContext, "app" | "selfUrl" | "sandbox" | "now">,
): Promise<LocalMode | undefined> {
  const { config } = base;
  if (!config.mode.embeddedSandbox && !config.mode.playground) return undefined;
  const { startLocalMode } = await import("../local-mode.ts");
  const local = startLocalMode({ ...at, config, logger: base.logger });
  base.stops.add(() => local.close());
  return local;
}
