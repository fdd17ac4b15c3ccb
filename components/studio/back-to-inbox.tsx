import { ArrowLeftIcon } from 'lucide-react';
import Link from 'next/link';
import { Button } from '@/components/ui/button';

/** The way back to Studio's inbox, above a Studio page's title (docs/studio.md). */
export function BackToInbox() {
  return (
    <Button asChild variant="ghost" size="sm" className="-ml-2 text-muted-foreground">
      <Link href="/studio">
        <ArrowLeftIcon aria-hidden />
        Inbox
      </Link>
    </Button>
  );
}
