// The observable core every client store is built on, as TanStack Query's `Subscribable` is:
// one immutable snapshot, replaced (never mutated) on each change, and the listeners told.
// React reads it through useSyncExternalStore (useAgent.ts); tests read it directly.

type Listener = () => void;

export abstract class Subscribable<Snapshot extends object> {
  private readonly listeners = new Set<Listener>();
  private current: Snapshot;

  protected constructor(initial: Snapshot) {
    this.current = initial;
  }

  getSnapshot = (): Snapshot => this.current;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Replaces the snapshot with `change` applied (and what follows from it), then tells every listener. */
  protected publish(change: Partial<Snapshot>): void {
    this.current = this.derive({ ...this.current, ...change });
    for (const listener of this.listeners) listener();
  }

  /** What a store computes from the rest of its snapshot on every change; nothing by default. */
  protected derive(next: Snapshot): Snapshot {
    return next;
  }
}
