// GET /api/v1/responses/{id}/input_items: what the run started with — the client's messages
// and function results, and the approvals it resumed with — as a list in OpenAI's shape,
// newest first unless ?order=asc (docs/internals/wires.md, "The Responses wire").
import { resolveOwner } from '../../../identity/owner';
import { openAiErrorResponse } from '../../../wire/openai/errors';
import { inputItem } from '../../../wire/responses/items';
import { findResponseRun } from './response-run';
import { jsonResponse } from '../../../http/small-answers';

export async function handleInputItems(request: Request, id: string): Promise<Response> {
  try {
    const found = await findResponseRun(id, await resolveOwner(request));
    const items = found.run.inputs.map(inputItem);
    const data = new URL(request.url).searchParams.get('order') === 'asc' ? items : items.reverse();
    return jsonResponse({ object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: false });
  } catch (error) {
    return openAiErrorResponse(error);
  }
}
