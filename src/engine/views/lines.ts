/** The run as lines: plain text for logs and pipes (stdout is not a terminal), or JSON with --json. */
import type { RunEvent, RunView } from '../events.js';
import { duration, localId, withUsage } from './format.js';
import { shellWord } from '../../shell.js';

export function eventLine(e: RunEvent): string | null {
  const at = e.phase ? `[${e.phase}] ` : '';
  switch (e.type) {
    case 'run.started':
      return `run ${e.run_id} of ${e.change_id} for ${e.person}, from ${e.phase}: planner ${e.agents.planner}, reviewer ${e.agents.reviewer}, workers ${e.agents.workers.join(', ')}`;
    case 'invocation.started':
      return `${at}${e.agent_id} started${e.task_id ? ` on ${localId(e.task_id)}` : ''} (attempt ${e.attempt}, invocation ${e.invocation})`;
    case 'invocation.finished':
      return `${at}${e.agent_id} ${e.failure ?? 'exited 0'} after ${duration(e.duration_ms)}${withUsage(e.usage)}`;
    case 'phase.validated':
      return e.document === 'review' ? `${at}✓ review round ${e.round}: ${e.verdict}` : `${at}✓ ${e.document} validated (revision ${e.revision}${(e.attempt ?? 1) > 1 ? `, attempt ${e.attempt}` : ''})`;
    case 'phase.refused':
      return [`${at}✗ ${e.document} refused (attempt ${e.attempt}): ${e.reason}`, ...e.findings.slice(0, 8).map((f) => `    ${f.source === 'call' ? `${f.tool}: ${f.code}: ` : `${f.file ?? ''}${f.line ? `:${f.line}` : ''} [${f.rule}] `}${f.message}`)].join('\n');
    case 'task.claimed':
      return `${at}${localId(e.task_id)} ${e.resumed ? 'resumed by' : '→'} ${e.agent_id}${e.branch ? ` on ${e.branch}` : ''}: ${e.title}`;
    case 'task.done':
      return `${at}✓ ${localId(e.task_id)} ${e.status === 'done' ? 'done' : 'submitted for review'} by ${e.agent_id}`;
    case 'task.attempt_failed':
      return `${at}✗ ${localId(e.task_id)} attempt ${e.attempt}: ${e.reason}`;
    case 'task.released':
      return `${at}${localId(e.task_id)} released: ${e.reason}`;
    case 'tool.called':
      // Progress reports and refusals; the other calls are in the transcript.
      if (!e.ok) return `${at}  ${e.agent_id} · ${e.tool} refused: ${e.code}: ${e.message ?? ''}`;
      return e.tool === 'agentboard_report_progress' && e.message ? `${at}  ${e.agent_id} · ${localId(e.task_id)} · ${e.message}` : null;
    case 'review.fix_tasks':
      return `${at}round ${e.round} (${e.verdict}) → fix tasks ${e.task_ids.map(localId).join(', ')}`;
    case 'merge.done':
      return `${at}merged ${e.branch}`;
    case 'merge.conflict':
      return `${at}✗ merging ${e.branch} conflicts${e.files.length ? ` in ${e.files.map(shellWord).join(', ')}` : `: ${e.message}`}`;
    case 'waiting_on_person':
      return [`${at}waiting on a person: ${e.subject} (${e.reason})`, ...e.commands.map((c) => `    ${c}`)].join('\n');
    case 'person.decided':
      return `${at}${e.person} ${e.decision === 'approve' ? 'approved' : 'rejected'} ${e.subject}${e.feedback ? `: ${e.feedback}` : ''}`;
    case 'notice':
      return `${at}note: ${e.message}`;
    case 'settings.changed':
    case 'document.edited':
    case 'worktree.off_branch':
      return `${at}⚠ ${e.message}`;
    case 'run.finished':
      return [`${e.outcome.replace(/_/g, ' ')}: ${e.message}`, `  ${e.invocations} invocation${e.invocations === 1 ? '' : 's'}${withUsage(e.usage)}`, ...e.next_steps.map((s) => `  next: ${s}`)].join('\n');
  }
}

export function plainView(write: (text: string) => void): RunView {
  return {
    show(e) {
      const line = eventLine(e);
      if (line !== null) write(`${line}\n`);
    },
    close: async () => undefined,
  };
}

/** `run --json`: one event per line, the last one run.finished. */
export function jsonView(write: (text: string) => void): RunView {
  return {
    show: (e) => write(`${JSON.stringify(e)}\n`),
    close: async () => undefined,
  };
}
