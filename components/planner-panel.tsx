'use client';
// The planner's shared state, live: the task list the agent writes (state.todos) and the
// draft the user edits (state.draft), saved on the server as the user types (no message needed).
import { CircleCheckIcon, CircleDotIcon, CircleIcon } from 'lucide-react';
import { cn } from './ui/cn';
import { Textarea } from './ui/field';
import { useHydrated } from './use-hydrated';

export interface Todo {
  id: string;
  title: string;
  status: 'pending' | 'in_progress' | 'done';
}

export interface PlannerPanelProps {
  todos?: unknown;
  /** Absent when the agent has no editable draft. */
  draft?: string;
  onDraftChange?: (draft: string) => void;
}

export function PlannerPanel({ todos, draft, onDraftChange }: PlannerPanelProps) {
  const hydrated = useHydrated();
  const items = asTodos(todos);
  const done = items.filter((todo) => todo.status === 'done').length;
  return (
    <div className="space-y-6 p-4" data-testid="planner-panel">
      <section className="space-y-2">
        <h2 className="flex items-center gap-2 text-sm font-semibold">
          Tasks
          {items.length > 0 && (
            <span className="text-xs font-normal text-muted-foreground">
              {done} of {items.length} done
            </span>
          )}
        </h2>
        {items.length === 0 ? (
          <p className="text-sm text-muted-foreground">No plan yet. Ask the agent to plan something and its tasks appear here as it works.</p>
        ) : (
          <ul className="space-y-1" data-testid="todo-list">
            {items.map((todo) => (
              <li key={todo.id} className="flex items-start gap-2 rounded-md px-1 py-1 text-sm" data-testid="todo-item" data-status={todo.status}>
                <TodoMark status={todo.status} />
                <span className={cn('flex-1', todo.status === 'done' && 'text-muted-foreground line-through')} data-testid="todo-title">
                  {todo.title}
                </span>
                <span className="sr-only">{STATUS_LABEL[todo.status]}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      {onDraftChange && (
        <section className="space-y-2">
          <h2 className="text-sm font-semibold">
            <label htmlFor="draft-input">Draft</label>
          </h2>
          <Textarea
            id="draft-input"
            data-testid="draft-input"
            rows={8}
            value={draft ?? ''}
            disabled={!hydrated}
            placeholder="Write here; the agent sees it with your next message."
            onChange={(event) => onDraftChange(event.target.value)}
          />
          <p className="text-xs text-muted-foreground">Shared with the agent as you type.</p>
        </section>
      )}
    </div>
  );
}

function TodoMark({ status }: { status: Todo['status'] }) {
  if (status === 'done') return <CircleCheckIcon className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />;
  if (status === 'in_progress') return <CircleDotIcon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />;
  return <CircleIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden />;
}

/** The number of tasks done, for the phone layout's Tasks button. */
export function taskCount(todos: unknown): string | null {
  const items = asTodos(todos);
  return items.length === 0 ? null : `${items.filter((todo) => todo.status === 'done').length}/${items.length}`;
}

const STATUS_LABEL: Record<Todo['status'], string> = { pending: 'To do', in_progress: 'In progress', done: 'Done' };

/** The agent writes state; render only what has the task shape. */
function asTodos(value: unknown): Todo[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (item): item is Todo =>
      item !== null &&
      typeof item === 'object' &&
      typeof item.id === 'string' &&
      typeof item.title === 'string' &&
      (item.status === 'pending' || item.status === 'in_progress' || item.status === 'done'),
  );
}
