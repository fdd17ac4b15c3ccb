// The server's own periodic work (the recovery sweep, the timer loop): a tick now and every
// intervalMs after, never two at once, never keeping the process alive by itself, and a failed
// tick logged, not thrown. Returns the stop function.
export function startBackgroundLoop(name: string, intervalMs: number, tick: () => Promise<unknown>): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      await tick();
    } catch (error) {
      console.error(`[stackbone] ${name} failed`, error);
    } finally {
      running = false;
    }
  };
  void run();
  const timer = setInterval(run, intervalMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
