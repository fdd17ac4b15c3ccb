import Link from 'next/link';

export default function NotFound() {
  return (
    <div className="not-found" data-testid="not-found">
      <h1>Not found</h1>
      <p className="muted">There is no such agent or conversation here.</p>
      <Link href="/" className="button">
        All agents
      </Link>
    </div>
  );
}
