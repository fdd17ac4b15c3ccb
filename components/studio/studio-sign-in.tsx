// Studio is its team's (docs/studio.md, docs/users-and-roles.md): a browser that is nobody, or a
// guest of the public chat, is asked to sign in to an account, and comes back to the page it asked for.
import { LogInIcon } from 'lucide-react';
import Link from 'next/link';
import { Button } from '../ui/button';

export function StudioSignIn({ next = '/studio' }: { next?: string }) {
  return (
    <div className="max-w-md space-y-4 rounded-xl border bg-card p-5 text-card-foreground shadow-sm sm:p-6" data-testid="studio-sign-in">
      <div className="flex items-start gap-3">
        <span className="grid size-9 shrink-0 place-items-center rounded-md bg-primary/10 text-primary" aria-hidden>
          <LogInIcon className="size-4" />
        </span>
        <p className="text-sm text-pretty text-muted-foreground">
          Studio is for this server&apos;s team. Sign in to your account to see your conversations and decide the approvals your roles let you.
        </p>
      </div>
      <Button asChild variant="primary" size="sm">
        <Link href={`/sign-in?next=${encodeURIComponent(next)}`} data-testid="studio-sign-in-link">
          Sign in
        </Link>
      </Button>
    </div>
  );
}
