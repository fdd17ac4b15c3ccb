// Runs once when a Next server starts: the recovery sweep that carries on runs whose server
// died and applies the default action of expired interrupts (server/runtime/recovery.ts).
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const [{ startRecoveryLoop }, { getStore }, { findAgent }] = await Promise.all([
    import('./server/runtime/recovery'),
    import('./server/store'),
    import('./server/agents'),
  ]);
  startRecoveryLoop(getStore(), findAgent, Number(process.env.STACKBONE_SWEEP_MS) || 5_000);
}
