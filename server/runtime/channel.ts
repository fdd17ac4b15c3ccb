// A one-producer, one-consumer async queue. The run writes into it at its own pace and
// finishes (and writes its last events) even if the consumer stops reading — a client that
// goes away must never leave a session half-written.

export interface Channel<T> extends AsyncIterable<T> {
  push(value: T): void;
  close(): void;
}

export function createChannel<T>(): Channel<T> {
  const buffer: T[] = [];
  let closed = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  return {
    push(value) {
      if (closed) return;
      buffer.push(value);
      notify();
    },
    close() {
      closed = true;
      notify();
    },
    async *[Symbol.asyncIterator]() {
      while (true) {
        if (buffer.length > 0) {
          yield buffer.shift()!;
          continue;
        }
        if (closed) return;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}
