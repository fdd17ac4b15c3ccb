// The body of a Slack message about an interrupt (docs/approvals.md, "Slack setup"): `text` for
// notifications and clients without blocks, and Block Kit `blocks` — the call, its arguments as
// they will run, the context and URL buttons. The call's line and arguments are the model's (a
// prompt injection can choose them) and the session key the client's, so every mrkdwn string
// carrying them is escaped: `<!channel>`, `<@U…>` or `<https://…|Approve>` arrive as text, and
// no argument can close the arguments' code block.
import type { InterruptMessage } from './interrupt-message';

/** Slack's section text is at most 3,000 characters; the arguments get this many, the rest is the block's own words. */
const ARGUMENTS_CHARS = 2900;

/** Slack's three control characters in text, escaped as it asks: `&`, `<` and `>` are text again. */
function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * One character of JSON as a code block shows it: Slack's control characters escaped, and a
 * backtick written as JSON's own `\u0060` — the same value when parsed, but no three of them can
 * end the block. (JSON has backticks only inside strings, and there `\u0060` is a valid escape.)
 */
function codeBlockCharacter(character: string): string {
  return character === '`' ? '\\u0060' : escapeMrkdwn(character);
}

/** The arguments as JSON for a code block, escaped, clipped to `max` characters without cutting an escape in two. */
function argumentsForCodeBlock(input: unknown, max: number = ARGUMENTS_CHARS): string {
  let shown = '';
  for (const character of JSON.stringify(input ?? null, null, 2)) {
    const piece = codeBlockCharacter(character);
    if (shown.length + piece.length > max) return `${shown}…`;
    shown += piece;
  }
  return shown;
}

/** A name in inline code: escaped, and a backtick (which would end the span) shown as `ˋ`. */
function inlineCode(text: string): string {
  return `\`${escapeMrkdwn(text.replace(/`/g, 'ˋ'))}\``;
}

/**
 * mrkdwn that carries text from outside, already escaped: `verbatim` keeps Slack from turning a
 * bare URL or a channel name in it into a link (docs.slack.dev, "Text object").
 */
const mrkdwn = (text: string) => ({ type: 'mrkdwn', text, verbatim: true });

/** A looked-up fact as text: mrkdwn escaped, and its backticks as look-alikes, so none opens a code span. */
function factText(text: string): string {
  return escapeMrkdwn(text).replace(/`/g, '\u02cb');
}

/** The webhook body of a message: `text` and Block Kit `blocks`. */
export function slackPayload(message: InterruptMessage): object {
  const button = (text: string, url: string, style?: 'primary' | 'danger') => ({
    type: 'button',
    text: { type: 'plain_text', text },
    url,
    ...(style ? { style } : {}),
  });
  return {
    // The notification line is mrkdwn too, and the only part a client without blocks shows.
    text: escapeMrkdwn(message.headline),
    // A URL the model wrote is not fetched by Slack for a preview card.
    unfurl_links: false,
    unfurl_media: false,
    blocks: [
      { type: 'section', text: mrkdwn(`*${escapeMrkdwn(message.subject)}*`) },
      {
        type: 'section',
        text: mrkdwn(
          `${inlineCode(message.interrupt.toolName)} with the arguments it will run with:\n\`\`\`${argumentsForCodeBlock(message.interrupt.input)}\`\`\``,
        ),
      },
      // What the tool looked up for the approver (docs/hitl.md, "Approval context").
      ...(message.interrupt.context
        ? [
            {
              type: 'section',
              text: mrkdwn(
                [
                  ...message.interrupt.context.facts.map((fact) => `${factText(fact.label)}: *${factText(fact.value)}*`),
                  ...(message.interrupt.context.risk ? [`:warning: ${factText(message.interrupt.context.risk)}`] : []),
                ].join('\n'),
              ),
            },
          ]
        : []),
      { type: 'context', elements: [mrkdwn(escapeMrkdwn(message.context.join(' · ')))] },
      {
        type: 'actions',
        elements: [
          ...(message.links.approve ? [button('Approve', message.links.approve, 'primary')] : []),
          ...(message.links.reject ? [button('Reject', message.links.reject, 'danger')] : []),
          button('Open in Studio', message.links.studio),
        ],
      },
    ],
  };
}
