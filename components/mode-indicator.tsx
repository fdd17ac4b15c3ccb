'use client';
// One small indicator of how this server runs, in the header: the access mode (open dev mode,
// or keyed mode and who this browser is; docs/security.md, "Modes") and whether the built-in
// scripted model answers (README, "Models"). The explanation opens on click, not as banners.
import { InfoIcon } from 'lucide-react';
import { Popover } from 'radix-ui';

export type AccessMode = { kind: 'open-dev' } | { kind: 'keyed'; webAccess: 'open' | 'key'; member: boolean };

export function ModeIndicator({ access, scriptedAgents }: { access: AccessMode; scriptedAgents: string[] }) {
  const label = access.kind === 'open-dev' ? 'Dev mode' : access.member ? 'Signed in' : access.webAccess === 'open' ? 'Guest' : 'Not signed in';
  return (
    <Popover.Root>
      <Popover.Trigger
        className="inline-flex h-7 items-center gap-1.5 rounded-full border bg-muted px-2.5 text-xs font-medium text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
        data-testid="mode-indicator"
      >
        <InfoIcon className="size-3.5" aria-hidden />
        {access.kind === 'open-dev' ? (
          <span data-testid="open-dev-marker">{label}</span>
        ) : (
          <span data-testid="keyed-marker" data-web-access={access.webAccess}>
            {label}
          </span>
        )}
        {scriptedAgents.length > 0 && (
          <span data-testid="scripted-marker" className="max-sm:sr-only">
            · offline model
          </span>
        )}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={6}
          className="z-50 w-80 max-w-[calc(100vw-1rem)] space-y-2 rounded-lg border bg-card p-3 text-sm text-card-foreground shadow-lg"
          data-testid="mode-details"
        >
          <p>{accessText(access)}</p>
          {scriptedAgents.length > 0 && (
            <p className="text-muted-foreground">
              Replies come from the built-in scripted model: it works offline and answers by fixed rules. Set OPENAI_API_KEY or ANTHROPIC_API_KEY for a real
              model.
            </p>
          )}
          <Popover.Arrow className="fill-card" />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

function accessText(access: AccessMode): string {
  if (access.kind === 'open-dev')
    return 'Open dev mode: no API keys are set, so everyone who reaches this server is the same local owner. Set STACKBONE_API_KEYS before you share it.';
  if (access.member) return 'Signed in to your account: your own conversations, and the approvals your roles let you decide (docs/users-and-roles.md).';
  if (access.webAccess === 'key') return "This server's app is its team's: sign in to your account to use it.";
  return 'A public chat: as a guest, this browser sees only the conversations it starts; approvals kept for key holders wait for an operator. Sign up to keep them under an account.';
}
