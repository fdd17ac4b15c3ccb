// Keeps work going after the response is sent. A run outlives its request
// (docs/internals/architecture.md, "The life of a run"): on a long-lived server it simply goes on, and
// on Vercel the route hands it to Next's `after()` so the function stays up until the run
// has written its last event, within the route's maxDuration.
export type KeepAlive = (work: Promise<unknown>) => void;

export const noKeepAlive: KeepAlive = () => undefined;
