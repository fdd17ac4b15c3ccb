// One tool call: its name, the arguments (streamed in as the model writes them), its latest
// preliminary output while it runs (for tools that stream them), and the result once there is one.
import type { ToolCall, ToolMessage } from '@ag-ui/client';

type ToolCallStatus = 'running' | 'waiting' | 'approval' | 'done' | 'failed';

export interface ToolCallCardProps {
  call: ToolCall;
  result?: ToolMessage;
  /** The latest preliminary output of a tool that streams them, while it runs. */
  progress?: unknown;
  /** Whether a run is in progress: an unanswered call is then being worked on. */
  running: boolean;
  /** An open interrupt holds this call until a person decides it. */
  awaitingDecision?: boolean;
}

export function ToolCallCard({ call, result, progress, running, awaitingDecision }: ToolCallCardProps) {
  const status: ToolCallStatus = result ? (result.error ? 'failed' : 'done') : running ? 'running' : awaitingDecision ? 'approval' : 'waiting';
  return (
    <div className="tool-call" data-testid="tool-call" data-tool-name={call.function.name} data-status={status}>
      <div className="tool-call-header">
        <span className="tool-call-icon" aria-hidden>
          ⚙
        </span>
        <code className="tool-call-name">{call.function.name}</code>
        <span className={`tool-call-status tool-call-status-${status}`}>{STATUS_LABEL[status]}</span>
      </div>
      <div className="tool-call-section">
        <div className="tool-call-label">Arguments</div>
        <pre className="tool-call-json" data-testid="tool-args">
          {pretty(call.function.arguments)}
        </pre>
      </div>
      {!result && progress !== undefined && (
        <div className="tool-call-section">
          <div className="tool-call-label">Progress</div>
          <pre className="tool-call-json" data-testid="tool-progress">
            {pretty(typeof progress === 'string' ? progress : JSON.stringify(progress))}
          </pre>
        </div>
      )}
      {result && (
        <div className="tool-call-section">
          <div className="tool-call-label">{result.error ? 'Error' : 'Result'}</div>
          <pre className="tool-call-json" data-testid="tool-result">
            {pretty(textOf(result.content))}
          </pre>
        </div>
      )}
    </div>
  );
}

const STATUS_LABEL: Record<ToolCallStatus, string> = {
  running: 'Running…',
  waiting: 'Waiting',
  approval: 'Awaiting approval',
  done: 'Done',
  failed: 'Failed',
};

/** JSON pretty-printed; anything else (including half-streamed JSON) as it is. */
function pretty(text: string): string {
  if (!text) return '';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function textOf(content: ToolMessage['content']): string {
  return typeof content === 'string' ? content : content.map((part) => ('text' in part ? String(part.text) : `[${part.type}]`)).join('');
}
