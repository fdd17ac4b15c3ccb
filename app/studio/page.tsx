import type { Metadata } from 'next';
import { StudioInbox } from '@/components/studio/inbox';

export const metadata: Metadata = { title: 'Studio' };

// Studio: decisions across sessions (docs/studio.md). Everything on it is live from the Studio feed.
export default function StudioPage() {
  return (
    <div className="studio">
      <header className="studio-header">
        <h1>Studio</h1>
        <p className="studio-lede">Every approval and question waiting on a person, across sessions and agents. Decide here and the chat goes on.</p>
      </header>
      <StudioInbox />
    </div>
  );
}
