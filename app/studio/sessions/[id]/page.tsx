import type { Metadata } from 'next';
import Link from 'next/link';
import { AuditTrailView } from '@/components/studio/audit-trail-view';

export const metadata: Metadata = { title: 'Audit trail · Studio' };

// One session's audit trail (docs/studio.md); it reads through the owner-scoped API, so a
// keyed server asks for the key first.
export default async function AuditTrailPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <div className="studio">
      <header className="studio-header">
        <Link href="/studio" className="studio-back">
          ← Inbox
        </Link>
        <h1>Audit trail</h1>
      </header>
      <AuditTrailView sessionId={id} />
    </div>
  );
}
