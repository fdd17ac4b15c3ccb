import { SearchXIcon } from 'lucide-react';
import Link from 'next/link';
import { PageFrame } from '@/components/page-frame';
import { Button } from '@/components/ui/button';

export default function NotFound() {
  return (
    <PageFrame className="max-w-md pt-16 sm:pt-24">
      <div data-testid="not-found" className="flex flex-col items-center gap-3 text-center">
        <SearchXIcon className="size-8 text-muted-foreground" aria-hidden />
        <h1 className="text-2xl font-semibold tracking-tight">Not found</h1>
        <p className="text-sm text-muted-foreground">There is no such agent or conversation here. Check the link, or start again from the list of agents.</p>
        <Button asChild variant="primary" className="mt-2">
          <Link href="/">All agents</Link>
        </Button>
      </div>
    </PageFrame>
  );
}
