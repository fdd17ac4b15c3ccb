// Roughly how much a parsed JSON value holds: the characters of its strings and keys, and 8 for
// every other leaf. Walked without recursion (no stack to overflow) and without building a string
// (JSON.stringify of a large value would copy all of it to measure it).

export function approximateBytes(root: unknown): number {
  let bytes = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') bytes += value.length;
    else if (value === null || typeof value !== 'object') bytes += 8;
    else if (Array.isArray(value)) for (const item of value) stack.push(item);
    else
      for (const [key, item] of Object.entries(value)) {
        bytes += key.length;
        stack.push(item);
      }
  }
  return bytes;
}
