// A tool's own word to the model and the person: `throw new ToolError('No order "po_9".')`.
// Its message is shown as it is — the model can correct itself, the chat shows why. Any other
// exception a tool throws may carry what nobody outside should read (a database's message, a
// URL with a token, a stack): the model and clients get `Tool "x" failed (ref …)` and the server's
// log gets the error (docs/hitl.md, "Tool errors"; docs/security.md, "What the server does not tell").

const TOOL_ERROR = Symbol.for('stackbone.ToolError');

export class ToolError extends Error {
  readonly [TOOL_ERROR] = true;

  /** By brand: a tool may be bundled with another copy of this class (Next bundles routes separately). */
  static is(error: unknown): error is ToolError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[TOOL_ERROR] === true;
  }

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ToolError';
  }
}
