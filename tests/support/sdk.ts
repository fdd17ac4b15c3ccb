// Helpers for driving the official SDKs in tests.
import { expect } from 'vitest';

/** A fetch that counts the HTTP requests an SDK makes (to prove it did not retry). */
export function countingFetch() {
  const calls = { count: 0 };
  const fetchCounted: typeof fetch = (input, init) => {
    calls.count++;
    return fetch(input, init);
  };
  return { calls, fetch: fetchCounted };
}

/** Awaits a promise that must reject with an error of the given class, and returns the error. */
export async function rejection<T>(promise: Promise<unknown>, type: abstract new (...args: never[]) => T): Promise<T> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(type);
    return error as T;
  }
  throw new Error(`expected a ${type.name}`);
}
