// A yes/no question on the terminal. Anything but y/yes (including EOF or Ctrl-C) is "no".
import { createInterface } from 'node:readline';

/**
 * @param {string} question e.g. "Approve? [y/N] "
 * @param {{ input: NodeJS.ReadableStream, output: NodeJS.WritableStream }} streams
 * @returns {Promise<boolean>}
 */
export function confirm(question, { input, output }) {
  return new Promise((resolve) => {
    const rl = createInterface({ input, output, terminal: Boolean(/** @type {any} */ (input).isTTY) });
    let answer = /** @type {string | undefined} */ (undefined);
    rl.on('SIGINT', () => rl.close());
    rl.on('close', () => {
      if (answer === undefined) output.write('\n'); // EOF or Ctrl-C: end the prompt line
      resolve(/^\s*y(es)?\s*$/i.test(answer ?? ''));
    });
    rl.question(question, (reply) => {
      answer = reply;
      rl.close();
    });
  });
}
