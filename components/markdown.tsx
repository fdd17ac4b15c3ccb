'use client';
// Markdown as the app shows it: a model's text (the chat's assistant messages, Studio's audit
// trail) through streamdown, which repairs half-written markdown while a message streams — an
// open code fence is already a code block, a half-written `**bold` shows no asterisks — with
// GFM tables, code blocks coloured by shiki (@streamdown/code: its grammars ship in the app's own
// chunks, loaded the first time a language appears, never from a CDN) with a copy button, and the
// app's own type scale. Model text is
// untrusted (docs/security.md, "Browsers"): raw HTML shows as the text it is, a link is only
// http(s) or mailto and opens after the reader has seen where it goes, and no image is loaded.
import { createCodePlugin } from '@streamdown/code';
import type { ComponentProps } from 'react';
import { defaultRehypePlugins, Streamdown, type Components, type ControlsConfig, type ExtraProps, type LinkSafetyConfig } from 'streamdown';
import { LinkDialog } from './link-dialog';
import { cn } from './ui/cn';

// streamdown's defaults are [raw, sanitize, harden]. Without `raw`, HTML in the text is never
// parsed into elements. The harden plugin is reused with our options — links keep its safe
// protocols only (a blocked one reads "text [blocked]"), and images are blocked, since an image
// URL loads by itself and could carry the conversation to another site — and the sanitizer runs
// last, so nothing after it can add what it removes.
const [hardenPlugin] = defaultRehypePlugins.harden as [unknown, unknown];
const REHYPE_PLUGINS = [[hardenPlugin, { allowedLinkPrefixes: ['*'], allowedImagePrefixes: [] }], defaultRehypePlugins.sanitize] as ComponentProps<
  typeof Streamdown
>['rehypePlugins'];

// GitHub's high-contrast pair: the default pair's orange and grey tokens fall under WCAG AA's
// 4.5:1 on a code block's background (axe's color-contrast, e2e/markdown.spec.ts).
const PLUGINS = { code: createCodePlugin({ themes: ['github-light-high-contrast', 'github-dark-high-contrast'] }) };

const CONTROLS: ControlsConfig = { code: { copy: true, download: false }, mermaid: false, image: false };

/** The app writes labels in sentence case. */
const TRANSLATIONS = { copyCode: 'Copy code' };

/** A link opens after the reader has seen its address in the app's own dialog (components/link-dialog.tsx). */
const LINK_SAFETY: LinkSafetyConfig = { enabled: true, renderModal: (props) => <LinkDialog {...props} /> };

type Props<Tag extends keyof React.JSX.IntrinsicElements> = React.JSX.IntrinsicElements[Tag] & ExtraProps;

/**
 * A chat-sized type scale (streamdown's starts at text-3xl), `strong` as <strong>, not a span,
 * and a table in a box of its own that scrolls sideways on a phone; the box takes focus, so the
 * keyboard can scroll it too (streamdown's own box cannot be focused).
 */
const COMPONENTS: Components = {
  h1: ({ node: _, className, ...props }: Props<'h1'>) => <h1 className={cn('mt-5 mb-2 text-xl font-semibold', className)} {...props} />,
  h2: ({ node: _, className, ...props }: Props<'h2'>) => <h2 className={cn('mt-5 mb-2 text-lg font-semibold', className)} {...props} />,
  h3: ({ node: _, className, ...props }: Props<'h3'>) => <h3 className={cn('mt-4 mb-1.5 text-base font-semibold', className)} {...props} />,
  h4: ({ node: _, className, ...props }: Props<'h4'>) => <h4 className={cn('mt-4 mb-1 text-sm font-semibold', className)} {...props} />,
  h5: ({ node: _, className, ...props }: Props<'h5'>) => <h5 className={cn('mt-3 mb-1 text-sm font-medium', className)} {...props} />,
  h6: ({ node: _, className, ...props }: Props<'h6'>) => <h6 className={cn('mt-3 mb-1 text-sm font-medium text-muted-foreground', className)} {...props} />,
  strong: ({ node: _, className, ...props }: Props<'strong'>) => <strong className={cn('font-semibold', className)} {...props} />,
  ul: ({ node: _, className, ...props }: Props<'ul'>) => <ul className={cn('list-outside list-disc space-y-1 pl-6', className)} {...props} />,
  ol: ({ node: _, className, ...props }: Props<'ol'>) => <ol className={cn('list-outside list-decimal space-y-1 pl-6', className)} {...props} />,
  li: ({ node: _, className, ...props }: Props<'li'>) => <li className={cn('pl-1 [&>p]:my-1', className)} {...props} />,
  table: ({ node: _, className, ...props }: Props<'table'>) => (
    <div role="region" aria-label="Table" tabIndex={0} className="my-3 overflow-x-auto rounded-lg border focus-visible:outline-2 focus-visible:outline-ring">
      <table className={cn('w-full divide-y divide-border text-sm', className)} data-streamdown="table" {...props} />
    </div>
  ),
};

export interface MarkdownProps {
  /** The text as the model wrote it, or as much of it as has arrived. */
  text: string;
  /** This text is still arriving: a caret follows it, and its code blocks cannot be copied yet. */
  streaming?: boolean;
  className?: string;
}

export function Markdown({ text, streaming = false, className }: MarkdownProps) {
  return (
    <Streamdown
      // A code block's long lines wrap and it grows to its full height, so it is never a box the
      // keyboard would have to scroll; the chat itself scrolls.
      className={cn('min-w-0 space-y-3 leading-relaxed break-words [&_pre]:whitespace-pre-wrap [&_pre]:[overflow-wrap:anywhere]', className)}
      isAnimating={streaming}
      caret={streaming ? 'block' : undefined}
      rehypePlugins={REHYPE_PLUGINS}
      components={COMPONENTS}
      controls={CONTROLS}
      plugins={PLUGINS}
      linkSafety={LINK_SAFETY}
      translations={TRANSLATIONS}
      lineNumbers={false}
      codeBlockMaxHeight={0}
      data-testid="markdown"
    >
      {text}
    </Streamdown>
  );
}
