/**
 * The loop the WhatsApp workers share (late resends, owed replies): a pass every `pollMs` after
 * the last one ended, never two at once, until stopped. `stop` waits for the pass under way, and
 * `halted()` tells that pass to give back, for another instance, what it has not yet tried.
 */
export function pollLoop(opts: {
  pass: () => Promise<unknown>;
  pollMs: number;
  onError: (err: unknown) => void;
}) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = true;
  let halted = false;
  const tick = () => {
    running = opts
      .pass()
      .catch(opts.onError)
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, opts.pollMs);
      });
  };
  return {
    halted: () => halted,
    start() {
      if (!stopped) return;
      stopped = false;
      halted = false;
      tick();
    },
    async stop() {
      stopped = true;
      halted = true;
      clearTimeout(timer);
      await running;
    },
  };
}
