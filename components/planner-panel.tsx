'use client';
// The planner's shared state, live: the task list the agent writes (state.todos) and the
// draft the user edits (state.draft), saved on the server as the user types (no message needed).
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
    <aside className="planner-panel" data-testid="planner-panel">
      <section className="panel-section">
        <h2 className="panel-title">
          Tasks{' '}
          {items.length > 0 && (
            <span className="panel-count">
              {done}/{items.length}
            </span>
          )}
        </h2>
        {items.length === 0 ? (
          <p className="panel-empty">No plan yet. Try “plan a launch: write post, email list, tweet”.</p>
        ) : (
          <ul className="todo-list" data-testid="todo-list">
            {items.map((todo) => (
              <li key={todo.id} className={`todo todo-${todo.status}`} data-testid="todo-item" data-status={todo.status}>
                <span className="todo-mark" aria-hidden>
                  {todo.status === 'done' ? '✓' : todo.status === 'in_progress' ? '◐' : '○'}
                </span>
                <span className="todo-title">{todo.title}</span>
                <span className="todo-status">{STATUS_LABEL[todo.status]}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      {onDraftChange && (
        <section className="panel-section">
          <h2 className="panel-title">
            <label htmlFor="draft-input">Draft</label>
          </h2>
          <textarea
            id="draft-input"
            className="draft-input"
            data-testid="draft-input"
            rows={8}
            value={draft ?? ''}
            disabled={!hydrated}
            placeholder="Write here; the agent sees it with your next message."
            onChange={(event) => onDraftChange(event.target.value)}
          />
          <p className="panel-hint">Shared with the agent: saved with your next message.</p>
        </section>
      )}
    </aside>
  );
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
