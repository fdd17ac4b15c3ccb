// Markdown as the app shows it (components/markdown.tsx), rendered to HTML as the server sends
// it for the first paint: half-written markdown mid-stream, and model text that tries to be HTML
// or a script link (docs/security.md, "Browsers").
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown } from './markdown';

const render = (text: string, streaming = false) => renderToStaticMarkup(createElement(Markdown, { text, streaming }));

/** What a reader sees: the markup without its tags, entities decoded. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&');

describe('Markdown', () => {
  it('shows plain text as one paragraph with the same text', () => {
    const html = render('token1 token2 token3');
    expect(html.match(/<p[ >]/g)).toHaveLength(1);
    expect(textOf(html)).toBe('token1 token2 token3');
  });

  it('renders a code fence that is still open mid-stream as a code block, without the backticks', () => {
    const html = render('Here it is:\n\n```ts\nconst answer = 42;\nconsole.log(ans', true);
    expect(html).toMatch(/<pre[^>]*>[\s\S]*const answer = 42;[\s\S]*console\.log\(ans[\s\S]*<\/pre>/);
    expect(textOf(html)).not.toContain('```');
  });

  it('shows a half-written **bold as bold, without asterisks', () => {
    const html = render('The refund is **approv', true);
    expect(html).toMatch(/<strong[^>]*>approv<\/strong>/);
    expect(textOf(html)).toBe('The refund is approv');
  });

  it('renders the finished text the same way', () => {
    const html = render('The refund is **approved** for `po_42`.');
    expect(html).toMatch(/<strong[^>]*>approved<\/strong>/);
    expect(html).toMatch(/<code[^>]*>po_42<\/code>/);
  });

  it('shows raw HTML as text and never as elements', () => {
    const html = render('Hi <script>alert(1)</script> <img src=x onerror="alert(2)"> <b>bold</b>\n\n<iframe src="https://evil.example"></iframe>');
    expect(html).not.toMatch(/<(script|img|b|iframe)[\s>]/i);
    expect(textOf(html)).toContain('<script>alert(1)</script>');
    expect(textOf(html)).toContain('<b>bold</b>');
  });

  it('makes no live link of a javascript: or data: URL, and keeps an https one', () => {
    const html = render('[click me](javascript:alert(1)) or [this](data:text/html,hi) or [docs](https://example.com/docs)');
    expect(html).not.toMatch(/(href|src)="(javascript|data):/);
    expect(html).not.toMatch(/<a[\s>]/);
    // The https link is the only one: streamdown renders it as a button that confirms the URL first.
    expect(html.match(/data-streamdown="link"/g)).toHaveLength(1);
    expect(html).toMatch(/data-streamdown="link"[^>]*>docs</);
    expect(textOf(html)).toContain('click me [blocked]');
  });

  it('loads no image the text names', () => {
    const html = render('![chart](https://evil.example/pixel.png?q=secret)');
    expect(html).not.toContain('evil.example');
    expect(html).not.toMatch(/<img[\s>]/);
    expect(textOf(html)).toContain('chart');
  });

  it('renders a GFM table and a list', () => {
    const html = render('- one\n- two\n\n| Order | Total |\n| --- | --- |\n| po_42 | $19.99 |');
    expect(html.match(/<li[ >]/g)).toHaveLength(2);
    expect(html).toMatch(/<table[\s\S]*<th[^>]*>Order<\/th>[\s\S]*<td[^>]*>\$19\.99<\/td>/);
  });
});
