// POST /api/links/decide: the confirmation page's form (docs/approvals.md, "Notifications and
// one-click links"). The token in the body is the credential; the runtime verifies it again and
// decides through its one pipeline (decideByLink). A form post answers as a browser expects —
// 303 back to the page, which now says what was decided, or a page saying why nothing was —
// and a JSON post answers JSON. Thin: the rules are the runtime's.
import { findAgent } from '../../agents';
import { errorResponse, HttpError } from '../../http/errors';
import { checkSameOrigin } from '../../http/same-origin';
import { checkOpenDevHost } from '../../identity/open-access';
import { ANY_READER, decideByLink, escapeHtml, Refusal, sessionKeyOf, shownDecision, shownVote } from '../../runtime';
import { getStore } from '../../store';
import { jsonResponse } from '../../http/small-answers';

/** A token and a reason fit in far less; a bigger body is no form of ours. */
const MAX_BODY_BYTES = 16 * 1024;

interface LinkForm {
  token: string;
  reason?: string;
}

async function readForm(request: Request): Promise<{ form: LinkForm; json: boolean }> {
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  const json = type === 'application/json';
  if (!json && type !== 'application/x-www-form-urlencoded') {
    throw new HttpError('unsupported_media_type', 'Send the form (application/x-www-form-urlencoded) or JSON {token, reason?}.');
  }
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw new HttpError('body_too_large', `The body is over ${MAX_BODY_BYTES} bytes.`);
  let fields: Record<string, unknown>;
  if (json) {
    try {
      fields = JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new HttpError('invalid_json', 'The body is not JSON.');
    }
  } else fields = Object.fromEntries(new URLSearchParams(text));
  if (typeof fields?.token !== 'string' || (fields.reason !== undefined && typeof fields.reason !== 'string')) {
    throw new HttpError('invalid_request', 'The body needs a token (the link’s) and may have a reason (a string).');
  }
  return { form: { token: fields.token, ...(fields.reason ? { reason: fields.reason } : {}) }, json };
}

/**
 * Decides. Returns the response and, when the decision completed its batch, the continuation's
 * completion for the route to keep alive after responding (Next's after()).
 */
export async function decideLink(request: Request): Promise<{ response: Response; continuation?: Promise<void> }> {
  let json = request.headers.get('content-type')?.startsWith('application/json') ?? false;
  let token: string | undefined;
  try {
    checkOpenDevHost(request);
    // The token is the credential, not a cookie; still, another site's page gets no decision out of a visitor's browser.
    checkSameOrigin(request);
    const read = await readForm(request);
    json = read.json;
    token = read.form.token;
    const result = await decideByLink({ store: getStore(), findAgent, token: read.form.token, ...(read.form.reason ? { reason: read.form.reason } : {}) });
    const response = json
      ? jsonResponse({
          interrupt: { id: result.interrupt.id, sessionId: sessionKeyOf(result.sessionId), toolName: result.interrupt.toolName },
          // A link's holder reads how it stands, never who else voted (docs/approvals.md, "Votes").
          decision: result.decision ? shownDecision(result.decision, ANY_READER) : null,
          ...(result.vote ? { vote: shownVote(result.vote, ANY_READER), quorum: result.interrupt.quorum } : {}),
          continuation: result.continuation ? { runId: result.continuation.runId } : null,
        })
      : new Response(null, { status: 303, headers: { Location: `/approve/${encodeURIComponent(read.form.token)}` } });
    return { response, continuation: result.continuation?.done };
  } catch (error) {
    if (json || !(error instanceof HttpError || error instanceof Refusal)) return { response: errorResponse(error, 'Link decision') };
    return { response: refusalPage(error, token) };
  }
}

/** Nothing was decided: a page saying why, with the status of the refusal. */
function refusalPage(error: HttpError | Refusal, token: string | undefined): Response {
  const back = token && /^[\w.-]+$/.test(token) ? `<p><a href="/approve/${token}">Back to the request</a></p>` : '';
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Nothing was decided</title></head>
<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5;color:#111827">
<h1 style="font-size:1.25rem">Nothing was decided</h1>
<p data-code="${escapeHtml(error.code)}">${escapeHtml(error.message)}</p>${back}</body></html>`;
  return new Response(html, { status: error.status, headers: { 'content-type': 'text/html; charset=utf-8' } });
}
