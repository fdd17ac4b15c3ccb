'use client';
// Your API keys (docs/users-and-roles.md, "API keys belong to users"): made here, shown once —
// only their hash is kept — and sent as `Authorization: Bearer` or `x-api-key`, they act as you
// on every API: the same conversations, roles and vote. Better Auth's api-key endpoints do the work.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRoundIcon, TrashIcon } from 'lucide-react';
import { useState } from 'react';
import { LocalTime } from '../local-time';
import { Button } from '../ui/button';
import { Field, Input } from '../ui/field';

interface ListedKey {
  id: string;
  name: string | null;
  start: string | null;
  createdAt: string;
}

async function authCall<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(
    `/api/auth${path}`,
    body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
  );
  const answer = (await response.json().catch(() => ({}))) as T & { message?: string };
  if (!response.ok) throw new Error(answer.message ?? `HTTP ${response.status}`);
  return answer;
}

export function ApiKeysPanel() {
  const queryClient = useQueryClient();
  const keys = useQuery({
    queryKey: ['account', 'api-keys'],
    queryFn: () => authCall<{ apiKeys: ListedKey[] }>('/api-key/list').then((answer) => answer.apiKeys),
  });
  const [name, setName] = useState('');
  const [made, setMade] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['account', 'api-keys'] });
  const create = useMutation({
    mutationFn: (keyName: string) => authCall<{ key: string }>('/api-key/create', { name: keyName }),
    onSuccess: (answer) => {
      setMade(answer.key);
      setName('');
      void refresh();
    },
  });
  const remove = useMutation({ mutationFn: (keyId: string) => authCall('/api-key/delete', { keyId }), onSuccess: () => void refresh() });
  return (
    <section aria-labelledby="keys-title" className="mt-10" data-testid="api-keys">
      <h2 id="keys-title" className="mb-1 flex items-center gap-2 text-lg font-semibold tracking-tight">
        <KeyRoundIcon className="size-4" aria-hidden />
        Your API keys
      </h2>
      <p className="mb-4 text-sm text-muted-foreground">For the CLI and scripts: a key acts as you. It is shown once; only its hash is kept.</p>
      <form
        className="mb-4 grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate(name.trim());
        }}
      >
        <Field label="Name">
          <Input value={name} onChange={(event) => setName(event.target.value)} placeholder="laptop" data-testid="api-key-name" />
        </Field>
        <Button type="submit" variant="primary" disabled={!name.trim() || create.isPending}>
          Make a key
        </Button>
      </form>
      {made && (
        <p className="mb-4 rounded-md border bg-muted/50 px-3 py-2 text-sm" role="status">
          Copy it now, it is not shown again:{' '}
          <code className="break-all select-all" data-testid="api-key-made">
            {made}
          </code>
        </p>
      )}
      {(keys.error ?? create.error ?? remove.error) && (
        <p className="mb-4 rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive" role="alert">
          {(keys.error ?? create.error ?? remove.error)!.message}
        </p>
      )}
      {keys.data && keys.data.length > 0 && (
        <ul className="divide-y rounded-lg border" aria-label="API keys">
          {keys.data.map((key) => (
            <li key={key.id} className="flex items-center gap-2 px-3 py-2 text-sm" data-testid="api-key">
              <span className="min-w-0 flex-1">
                <span className="block truncate font-medium">{key.name ?? 'Unnamed'}</span>
                <span className="text-xs text-muted-foreground">
                  {key.start ? `${key.start}… · ` : ''}made <LocalTime iso={key.createdAt} />
                </span>
              </span>
              <Button variant="ghost" size="icon-sm" aria-label={`Delete the key ${key.name ?? key.id}`} onClick={() => remove.mutate(key.id)}>
                <TrashIcon aria-hidden />
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
