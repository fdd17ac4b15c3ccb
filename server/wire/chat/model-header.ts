// The model a chat-wire client chose for its turn (docs/internals/wires.md, "Choosing a model"): the body's
// `model` names the agent, so the agent's model rides in a header of its own.
import { HttpError } from '../../http/errors';

const MODEL_HEADER = 'x-stackbone-model';

/** The model the request asks for, if it names one; the runtime checks the agent offers it. */
export function readModelHeader(request: Request): string | undefined {
  const raw = request.headers.get(MODEL_HEADER);
  if (raw === null) return undefined;
  const model = raw.trim();
  if (!model || model.length > 200) {
    throw new HttpError('invalid_request', `The ${MODEL_HEADER} header must name one of the agent's models (GET /api/v1/models lists them).`, {
      param: MODEL_HEADER,
    });
  }
  return model;
}
