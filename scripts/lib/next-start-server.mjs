// What `npm start`'s preloads share (scripts/http-timeouts.mjs, scripts/http-admission.mjs): a
// setting read from the environment, and a say in the one HTTP server `next start` makes — it
// creates that server itself, so a preload changes `http.createServer` before it runs.
import http from 'node:http';

/** A positive whole number from the environment, else `fallback`. */
export function positiveWhole(name, fallback) {
  const value = Math.floor(Number(process.env[name]?.trim() || NaN));
  return value > 0 ? value : fallback;
}

/**
 * Lets `change` see and replace the options and request handler of every server made from here on.
 * @param {(options: import('node:http').ServerOptions, handler: import('node:http').RequestListener | undefined) => [import('node:http').ServerOptions, import('node:http').RequestListener | undefined]} change
 */
export function changeCreatedServers(change) {
  const createServer = http.createServer;
  http.createServer = function createChangedServer(options, listener) {
    const [given, handler] = typeof options === 'function' || options === undefined ? [{}, options] : [options, listener];
    return createServer.call(this, ...change(given, handler));
  };
}
