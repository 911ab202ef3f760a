/**
 * Results as text for people (the CLI without --json) and as markdown for agents that ask for
 * response_format "markdown". One renderer per operation; anything without one is shown as
 * indented key: value lines. The renderers of what people read most (status, list, show, validate,
 * log) colour states, verdicts, severities and levels when given a Paint that does.
 */
import { refTo, SUBMIT_OP } from '../domain/refs.js';
import { DOC_COLOR, LEVEL_COLOR, PHASE_COLOR, SESSION_COLOR, SEVERITY_COLOR, TASK_COLOR, VERDICT_COLOR } from './colors.js';
import { PLAIN, visibleLength, type Paint } from './paint.js';

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Columns padded to their widest cell; cells may be coloured. */
export function table(headers: string[], rows: string[][]): string {
  if (rows.length === 0) return '';
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => visibleLength(r[i] ?? ''))));
  const pad = (c: string, w: number) => c + ' '.repeat(Math.max(0, w - visibleLength(c)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : pad(c, widths[i]!))).join('  ').trimEnd();
  return [line(headers), ...rows.map(line)].join('\n') + '\n';
}

function kv(data: unknown, indent = ''): string {
  if (data === null || typeof data !== 'object') return `${indent}${String(data)}\n`;
  let out = '';
  for (const [k, v] of Object.entries(data as Data)) {
    if (v === null || v === undefined || (Array.isArray(v) && v.length === 0)) continue;
    if (Array.isArray(v)) {
      out += `${indent}${k}:\n`;
      for (const item of v) out += typeof item === 'object' ? `${indent}  -\n${kv(item, `${indent}    `)}` : `${indent}  - ${String(item)}\n`;
    } else if (typeof v === 'object') out += `${indent}${k}:\n${kv(v, `${indent}  `)}`;
    else out += `${indent}${k}: ${String(v)}\n`;
  }
  return out;
}

/** What the next page of a change or a document is read by besides its cursor: the change (and the document and its format), as this page was. */
const PAGE_ARGS: Record<string, string[]> = { 'change.show': ['change_id'], 'document.get': ['change_id', 'document', 'format'] };

function pageArgs(opName: string, data: Data): Record<string, string> {
  return Object.fromEntries((PAGE_ARGS[opName] ?? []).filter((key) => typeof data[key] === 'string').map((key) => [key, data[key] as string]));
}

/** What a paged result says after its items: how many in all, and the call for the next page. */
function pageEnd(opName: string, data: Data): string {
  let out = data.notice ? `\n${data.notice}\n` : '';
  if (data.has_more && data.next_cursor) out += `(${data.total} in all; next page: ${refTo(opName, { ...pageArgs(opName, data), cursor: data.next_cursor })})\n`;
  return out;
}

function warnings(data: Data): string {
  const w = (data.warnings ?? []) as Data[];
  return w.map((f) => `  warning: ${f.file}${f.line ? `:${f.line}` : ''}: ${f.message} (${f.rule}; fix: ${f.fix})\n`).join('');
}

function feedback(items: Data[] | undefined, title = 'Feedback to address'): string {
  if (!items || items.length === 0) return '';
  return `\n${title}:\n${items.map((f) => `  - ${f.author} (${f.at}): ${f.text}`).join('\n')}\n`;
}

/** " · held by codex · 40% · ready": who holds or did a task, how far it is, whether it can start. */
function taskState(t: Data): string {
  const who = t.assignee ? ` · ${t.status === 'done' ? 'done by' : 'held by'} ${t.assignee}` : '';
  const progress = t.progress !== null && t.status !== 'done' ? ` · ${t.progress}%` : '';
  return `${who}${progress}${t.ready ? ' · ready' : ''}`;
}

function taskBlock(t: Data, p: Paint = PLAIN): string {
  let out = `${p.bold(t.task_id)}  ${p.color(TASK_COLOR[t.status], `[${t.status}]`)} ${t.title}\n`;
  out += `  priority ${t.priority}${taskState(t)}\n`;
  if (t.depends?.length) out += `  depends on: ${t.depends.join(', ')}\n`;
  if (t.files?.length) out += `  files: ${t.files.map((f: Data) => `${f.path} (${f.action})`).join(', ')}\n`;
  if (t.skills?.length) out += `  skills: ${t.skills.join(', ')}\n`;
  if (t.progress_message) out += `  progress: ${t.progress_message}\n`;
  if (t.description) out += `\n${t.description.replace(/^/gm, '  ')}\n`;
  for (const b of t.blockers ?? []) if (!b.resolved_at) out += `  ${p.color(SEVERITY_COLOR[b.severity], `blocked (${b.severity})`)} by ${b.by}: ${b.reason}\n`;
  out += feedback(t.feedback);
  if (t.notes?.length) out += `\nNotes:\n${t.notes.map((n: Data) => `  - ${n.author} (${n.at}): ${n.text}`).join('\n')}\n`;
  return out;
}

/** A document read as fields, in short: what it is, and each item of its page with its id. */
/** A text, each line indented under the line that names it. */
function indented(text: unknown): string {
  return typeof text === 'string' && text !== '' ? `${text.replace(/^/gm, '    ')}\n` : '';
}

function documentFields(d: Data): string {
  const c = d.content ?? {};
  let out = `The ${d.document} of ${d.change_id}${d.archived ? ' (archived, read-only)' : ''}: ${d.status}, revision ${d.revision}, by ${d.author} · ${d.file}\n`;
  if (c.title) out += `Title: ${c.title}\n`;
  if (c.tasks) out += `\n${c.tasks.map(taskLine).join('')}`;
  for (const r of c.rounds ?? []) out += `\nRound ${r.round}: ${r.verdict} by ${r.reviewer} (${r.at}): ${r.summary}\n${r.issues.map((i: Data) => `  - [${i.severity}] ${i.title}: ${i.description}\n`).join('')}`;
  for (const key of ['why', 'what_changes', 'impact', 'overview', 'text']) if (typeof c[key] === 'string') out += `\n${key}: ${c[key]}\n`;
  // Every field a spec is written with, so that a reader of this text alone can write it again (a rejected spec, say).
  if (c.requirements) out += `\nRequirements:\n${c.requirements.map((r: Data) => `  ${r.id}: ${r.title}${r.delta ? ` (${r.delta})` : ''}${r.group ? ` [${r.group}]` : ''}\n${indented(r.text)}`).join('')}`;
  if (c.scenarios?.length) {
    const step = (word: string, v: unknown) => (v === undefined || v === '' ? '' : `    ${word} ${Array.isArray(v) ? v.join('; ') : String(v)}\n`);
    out += `\nScenarios:\n${c.scenarios.map((sc: Data) => `  ${sc.name}${sc.requirement ? ` (${sc.requirement})` : ''}\n${step('GIVEN', sc.given)}${step('WHEN', sc.when)}${step('THEN', sc.then)}`).join('')}`;
  }
  for (const key of ['data_model', 'interfaces']) if (typeof c[key] === 'string') out += `\n${key}:\n${indented(c[key])}`;
  for (const section of c.sections ?? []) out += `\n${section.heading ? `## ${section.heading}` : '(text under the title)'}:\n${indented(section.text)}`;
  return out;
}

/** What a change's phase asks for next, after a write of its documents: the next document, or its work. */
const PHASE_NEXT: Record<string, (changeId: string) => string> = {
  spec: (changeId) => `write its spec with ${refTo(SUBMIT_OP.spec, { change_id: changeId })}`,
  tasks: (changeId) => `write its task list with ${refTo(SUBMIT_OP.tasks, { change_id: changeId })}`,
  implementation: (changeId) => `agents take its tasks with ${refTo('task.next', { change_id: changeId })}`,
};

function written(data: Data): string {
  let out = `${data.corrected_by ? 'Corrected' : 'Submitted'} the ${data.document} of ${data.change_id} (revision ${data.revision}): ${data.file}\n`;
  if (data.round) out += `Review round ${data.round}: ${data.verdict}\n`;
  if (data.task_ids) out += `Tasks: ${data.task_ids.join(', ')}\n`;
  out += `Phase: ${data.phase}\n`;
  const next = data.next_step ?? (data.document !== 'review' ? PHASE_NEXT[data.phase]?.(data.change_id) : undefined);
  if (next) out += `Next: ${next}\n`;
  return out + warnings(data);
}

function workflow(data: Data): string {
  if (data.session === 0) return `${data.message ?? `${data.agent_id}: no session yet (its first call that does work opens one)`}\n`;
  let out = `${data.agent_id}: ${data.status}${data.message ? ` · ${data.message}` : ''} (session ${data.session}, ${data.history_total} move${data.history_total === 1 ? '' : 's'})\n`;
  if (data.phase || data.progress) out += `  ${[data.phase, data.progress].filter(Boolean).join(' · ')}\n`;
  if (data.reason) out += `  blocked: ${data.reason}${data.blockers?.length ? ` (${data.blockers.join('; ')})` : ''}\n`;
  if (data.review) out += `  submitted for review: ${data.review.summary}${data.review.pr_url ? ` (${data.review.pr_url})` : ''}\n`;
  if (data.tasks_in_review?.length) out += `  tasks in review: ${data.tasks_in_review.join(', ')}\n`;
  const q = data.awaiting_input;
  if (q) out += `\nWaiting for an answer to ${q.input_id} (until ${q.expires_at}; then: ${q.default_action}):\n  ${q.question}\n${q.options.length ? `  options: ${q.options.join(' | ')}\n` : ''}`;
  if (data.resolutions?.length) {
    out += `\nAnswers:\n${data.resolutions.map((r: Data) => `  ${r.input_id}: ${r.question}\n    → ${r.resolution.type === 'timeout' ? `no answer in time; default action: ${r.resolution.value}` : `${r.resolution.by}: ${r.resolution.value}`}`).join('\n')}\n`;
  }
  return out;
}

/** A count of tasks in a state, coloured as the state when there are any. */
function counted(p: Paint, n: number, state: string, words = state.replace(/_/g, ' ')): string {
  return n > 0 ? p.color(TASK_COLOR[state], `${n} ${words}`) : `${n} ${words}`;
}

function doneOf(p: Paint, tasks: Data): string {
  const text = `${tasks.done}/${tasks.total}`;
  return tasks.total > 0 && tasks.done === tasks.total ? p.color('green', text) : text;
}

function statusBoard(d: Data, p: Paint): string {
  const t = d.totals;
  let out = `${p.bold(d.project)}: ${p.color(t.total > 0 && t.done === t.total ? 'green' : undefined, `${t.done}/${t.total} tasks done (${t.completion_percentage}%)`)} · ${counted(p, t.in_progress, 'in_progress')} · ${counted(p, t.blocked, 'blocked')} · ${counted(p, t.in_review, 'in_review')} · ${t.ready} ready${t.urgent ? ` · ${p.color('red', `${t.urgent} urgent`)}` : ''}\n`;
  if (d.changes.length) {
    out += `\n${p.bold('Changes')}\n${table(
      ['CHANGE', 'PHASE', 'TASKS', 'WAITING ON'],
      d.changes.map((c: Data) => [c.change_id, p.color(PHASE_COLOR[c.phase], c.phase), doneOf(p, c.tasks), c.waiting_on ?? '']),
    )}`;
  } else out += `\nNo ${d.archived_left_out ? 'open ' : ''}changes yet: create one with ${refTo(['change.create', 'proposal.submit'])}.\n`;
  out += leftOut(d);
  if (d.agents.length) {
    out += `\n${p.bold('Agents')}\n${table(
      ['AGENT', 'STATUS', 'HOLDS', 'DONE', 'IN REVIEW'],
      d.agents.map((a: Data) => [a.agent_id, a.workflow_status ? p.color(SESSION_COLOR[a.workflow_status], a.workflow_status) : '-', a.current_tasks.join(', ') || '-', String(a.done), String(a.in_review)]),
    )}`;
  }
  if (d.runs.length) {
    out += `\n${p.bold('Runs')}\n${d.runs.map((r: Data) => `  ${r.run_id} of ${r.change_id}: ${r.state === 'running' ? `running (process ${r.pid}), at ${r.phase}, ${r.invocations} invocations` : `died at ${r.phase} (process ${r.pid} is gone); \`agentboard run ${r.change_id}\` releases its claims and goes on`}`).join('\n')}\n`;
  }
  if (d.stale_claims.length) out += `\n${p.bold('Stale claims (no progress for a while)')}\n${d.stale_claims.map((s: Data) => p.color('red', `  ${s.task_id} held by ${s.assignee}, ${s.run_id ? `claimed by run ${s.run_id}, which died` : `idle ${s.idle_minutes} min`}`)).join('\n')}\n`;
  const waits: string[] = [
    ...d.open_inputs.map((i: Data) => `  question ${i.input_id} from ${i.agent_id}: ${i.question} (answer with ${refTo('input.answer', { input_id: i.input_id })}; default at ${i.expires_at}: ${i.default_action})`),
    ...d.tasks_in_review.map((r: Data) => `  task ${r.task_id} submitted by ${r.assignee} (approve or reject with ${refTo('task.approve', { task_id: r.task_id })} / ${refTo('task.reject', { task_id: r.task_id })})`),
    ...d.awaiting_decision
      .filter((w: Data) => w.blocking || w.review_requested)
      .map((w: Data) => `  ${w.document} of ${w.change_id} by ${w.author}${w.blocking ? ' blocks the next phase until approved' : ' is with reviewer agents'} (${refTo('document.approve', { change_id: w.change_id, document: w.document })} / ${refTo('document.reject', { change_id: w.change_id, document: w.document })})`),
  ];
  const optional = d.awaiting_decision.filter((w: Data) => !w.blocking && !w.review_requested).length;
  if (waits.length) out += `\n${p.color('yellow', p.bold('Waiting on people'))}\n${waits.join('\n')}\n`;
  if (optional) out += `\n${optional} submitted document${optional === 1 ? '' : 's'} can be approved or rejected; list them with ${refTo('document.list')} (awaiting: decision).\n`;
  if (d.costs.length) {
    out += `\n${p.bold('Run usage per change')}\n${table(
      ['CHANGE', 'RUNS', 'TOKENS', 'COST'],
      d.costs.map((c: Data) => [c.change_id, String(c.runs), (c.input_tokens + c.output_tokens).toLocaleString('en-US'), c.cost_usd === null ? '-' : `$${c.cost_usd.toFixed(4)}`]),
    )}`;
  }
  if (d.problems.length) out += `\n${p.color('red', p.bold('Problems'))}\n${d.problems.map((f: Data) => `  ${p.bold(`${f.file}${f.line ? `:${f.line}` : ''}`)}: ${p.color('red', f.message)}`).join('\n')}\n`;
  if (d.hand_edited.length) out += `\n${p.bold('Edited by hand (merged on the next write)')}\n${d.hand_edited.map((f: string) => `  ${f}`).join('\n')}\n`;
  if (d.conflicts.length) out += `\n${p.color('yellow', p.bold(`Merge conflicts (both values kept; see ${refTo('conflict.list')})`))}\n${d.conflicts.map((c: Data) => `  ${conflictLine(c)}`).join('\n')}\n`;
  return out;
}

/** The board files a git merge left unresolved, and what to do about them. */
function gitConflictLines(d: Data): string {
  if (!d.git_conflicts?.length) return '';
  const what = d.git_operation ? `A git ${d.git_operation} stopped on conflicts in the board's files` : "Unresolved git merge conflicts in the board's files";
  const files = d.git_conflicts.map((f: Data) => `  ${f.file}${f.line === null ? '' : `:${f.line}: markers on lines ${f.line}–${f.end_line}`}${f.unmerged ? ' (unmerged)' : ''}`);
  return `${what}:\n${files.join('\n')}\nNext: ${d.next_step}\n`;
}

function conflictLine(c: Data): string {
  if (c.part === 'removed') return `${c.file} ${c.item}: missing from the edited file, kept`;
  if (c.part === 'added') return `${c.file} ${c.item}: added by hand to an approved task list, left out`;
  return `${c.file} ${c.item}: ${c.part} differs; ${c.kept === 'person' ? "the person's" : "agentboard's"} is in the file`;
}

/** What a client asks before it starts a server its project configuration names. */
const TRUST: Record<string, string> = {
  claude: ' (Claude Code asks once to approve project servers: approve agentboard, or in /mcp)',
  codex: ' (Codex reads it only in a trusted project: trust the folder when asked)',
  // Folder trust is on unless a person turned it off: an untrusted folder's servers are not started.
  gemini: ' (Gemini CLI reads it only in a trusted folder: trust the folder when asked, or with /permissions)',
  vscode: " (VS Code asks to trust a project's server before it first starts it: trust agentboard when asked)",
};

/** What a board-wide read says of the archived changes it leaves out (a line of its own). */
function leftOut(d: Data): string {
  return d.archived_note ? `${d.archived_note}\n` : '';
}

/** The line a list of an archived change starts with (`changeId`: the change, when the page holds an item of it). */
function readOnly(archived: boolean, changeId: string | undefined): string {
  return archived ? `${changeId ?? 'This change'} is archived: read-only.\n` : '';
}

const RENDERERS: Record<string, (d: Data, p: Paint) => string> = {
  'board.init': (d) =>
    (d.already_initialized
      ? `A board already exists in ${d.root}; ${d.updated.length > 0 ? `brought up to date: ${d.updated.join(', ')}` : d.mcp.some((m: Data) => m.result === 'created' || m.result === 'added') ? 'the board is unchanged' : 'nothing changed'}.\n`
      : `Created a board in ${d.root}: ${d.created.join(', ')}\nNext: plan a change with ${refTo('proposal.submit')} (or have agents do it with \`agentboard run\` and the change id, \`--goal\` saying what it is for).\n`) +
    d.mcp
      .map((m: Data) => {
        const what = { created: 'created, with the agentboard server', added: 'agentboard server added', unchanged: 'already has the agentboard server', kept: 'has its own agentboard entry, kept as it is' }[m.result as string];
        return `${m.client}: ${m.file} ${what}${TRUST[m.client as string] ?? ''}\n`;
      })
      .join('') +
    // Said when this run wrote an entry: one kept or already there says how it starts itself.
    (d.mcp_server && !d.mcp_server.on_path && d.mcp.some((m: Data) => m.result === 'created' || m.result === 'added')
      ? `agentboard is not on the PATH, so the clients start it as ${[d.mcp_server.command, ...d.mcp_server.args].join(' ')} (\`npm link\` in the agentboard folder puts it on the PATH).\n`
      : '') +
    (d.warning ? `Warning: ${d.warning}\n` : ''),
  'change.create': (d) => `Created change ${d.change_id}: ${d.file}\nNext: write its proposal with ${refTo('proposal.submit', { change_id: d.change_id })}.\n`,
  'proposal.submit': written,
  'spec.create': written,
  'tasks.create': written,
  'review.create': written,
  'document.correct': written,
  'change.list': (d, p) => {
    const listed = d.changes.filter((c: Data) => c.archived).length;
    // A list that holds archived changes was asked for them: the rest come in its next pages, not by another call.
    const more = listed === 0 && d.archived_count > 0 ? `${d.archived_count} archived change${d.archived_count === 1 ? '' : 's'} (${refTo('change.list', { archived: true })} lists them)\n` : '';
    if (d.changes.length === 0 && d.notice) return ''; // the notice says it, after the page
    if (d.changes.length === 0) return d.archived_count > 0 ? `No open changes.\n${more}` : `No changes yet: create one with ${refTo(['change.create', 'proposal.submit'])}.\n`;
    return (
      table(['CHANGE', 'PHASE', 'TASKS', 'WAITING ON'], d.changes.map((c: Data) => [c.change_id, p.color(PHASE_COLOR[c.phase], c.phase), doneOf(p, c.tasks), c.archived ? p.dim(c.archived) : (c.waiting_on ?? '')])) +
      (more ? `\n${more}` : '')
    );
  },
  'change.show': (d, p) =>
    `${p.bold(d.change_id)}: ${d.title}\nPhase: ${p.color(PHASE_COLOR[d.phase], d.phase)}${d.waiting_on ? ` (waiting on ${d.waiting_on})` : ''}${d.archived ? ` (read-only, in ${d.archived})` : ''}${d.verdict ? ` · latest review: ${p.color(VERDICT_COLOR[d.verdict], d.verdict)}` : ''}\n\n` +
    table(['DOCUMENT', 'STATUS', 'REV', 'AUTHOR', 'FILE'], d.document_files.map((f: Data) => [f.document, f.unreadable ? 'unreadable' : p.color(DOC_COLOR[f.status], f.status), String(f.revision), f.author, f.file])) +
    (d.task_ids.length ? `\nTasks: ${doneOf(p, d.tasks)} done\n  ${d.task_ids.join('\n  ')}\n` : ''),
  'document.get': (d) => `${d.markdown ?? documentFields(d)}${d.markdown === '' || d.markdown?.endsWith('\n') ? '' : '\n'}`,
  'document.list': (d) =>
    readOnly(d.archived, d.documents[0]?.change_id) +
    (table(['CHANGE', 'DOCUMENT', 'STATUS', 'AUTHOR', 'UPDATED'], d.documents.map((x: Data) => [x.change_id, x.document, x.unreadable ? 'unreadable (see validate)' : `${x.status}${x.review_requested ? ' (with reviewers)' : ''}`, x.author, x.updated])) || 'No documents match.\n') +
    leftOut(d),
  'document.approve': (d) => `Approved the ${d.document} of ${d.change_id}.\n`,
  'document.reject': (d) => `Rejected the ${d.document} of ${d.change_id}; the feedback is kept in ${d.file}.\n`,
  'document.request_review': (d) => `Sent the ${d.document} of ${d.change_id} to reviewer agents.\n`,
  'document.release': (d) => (d.released_from ? `Released the ${d.document} of ${d.change_id} from ${d.released_from}.\n` : `Nobody holds the ${d.document} of ${d.change_id}; nothing changed.\n`),
  'change.validate': (d, p) => {
    const lines = [...d.findings, ...d.changes.flatMap((c: Data) => c.findings)].map(
      (f: Data) => `${p.bold(`${f.file}${f.line ? `:${f.line}` : ''}`)}: ${p.color(LEVEL_COLOR[f.level], f.level)} ${p.dim(f.rule)}: ${f.message}\n  ${p.dim(`fix: ${f.fix}`)}`,
    );
    const verdict = d.valid
      ? p.color('green', `valid: ${d.checked} change${d.checked === 1 ? '' : 's'} checked${d.changes.length && d.checked <= 20 ? ` (${d.changes.map((c: Data) => `${c.change_id}${c.archived ? ', archived' : ''}`).join(', ')})` : ''}, ${d.warnings} warning${d.warnings === 1 ? '' : 's'}`)
      : p.color('red', `invalid: ${d.errors} error${d.errors === 1 ? '' : 's'}, ${d.warnings} warning${d.warnings === 1 ? '' : 's'}${d.strict ? ' (strict: warnings count)' : ''}`);
    const edited = d.hand_edited.length ? `${p.bold('Edited by hand (merged on the next write)')}\n${d.hand_edited.map((f: string) => `  ${f}`).join('\n')}\n\n` : '';
    return `${lines.length ? `${lines.join('\n')}\n\n` : ''}${edited}${verdict}\n`;
  },
  'change.archive': (d) =>
    `Archived ${d.change_id} to ${d.archived_to}.\n` +
    (d.worktrees_removed.length ? `Removed the worktree${d.worktrees_removed.length === 1 ? '' : 's'} of its tasks (their branches stay):\n${d.worktrees_removed.map((w: string) => `  ${w}\n`).join('')}` : '') +
    (d.worktrees_kept.length ? `Kept, with work left in them:\n${d.worktrees_kept.map((w: Data) => `  ${w.path}: ${w.reason}\n`).join('')}` : ''),
  'task.next': (d) => {
    let out = `${d.message}\n`;
    if (d.task) out += `\n${taskBlock(d.task)}`;
    if (d.context?.requirements?.length) out += `\nRequirements:\n${d.context.requirements.map((r: Data) => `  ${r.id}: ${r.title}`).join('\n')}\n`;
    if (d.context?.dependencies?.length) out += `\nDependencies:\n${d.context.dependencies.map((x: Data) => `  ${x.task_id} ${x.status}`).join('\n')}\n`;
    if (d.document) out += `\n${d.document.file}${feedback(d.document.feedback)}`;
    return out;
  },
  'task.list': (d, p) =>
    readOnly(d.archived, d.tasks[0]?.task_id.split('/')[0]) +
    (table(['TASK', 'STATUS', 'PRIORITY', 'ASSIGNEE', 'TITLE'], d.tasks.map((t: Data) => [t.task_id, p.color(TASK_COLOR[t.status], t.status) + (t.ready ? '*' : ''), t.priority, t.assignee ?? '-', t.title])) || 'No tasks match.\n') +
    (d.tasks.some((t: Data) => t.ready) ? '(* ready to start)\n' : '') +
    leftOut(d),
  'task.show': (d, p) => taskBlock(d.task, p) + (d.dependencies.length ? `\nDependencies:\n${d.dependencies.map((x: Data) => `  ${x.task_id} ${p.color(TASK_COLOR[x.status], x.status)}`).join('\n')}\n` : ''),
  'task.rm': (d) => `Deleted ${d.task_id}.\n`,
  'agent.register': (d) => `${d.updated ? 'Updated' : 'Registered'} ${d.agent.agent_id} (${d.agent.role}).\n`,
  'agent.list': (d) =>
    table(
      ['AGENT', 'ROLE', 'STATUS', 'CURRENT TASK', 'DONE', 'LAST SEEN'],
      d.agents.map((a: Data) => [a.agent_id, a.role ?? '(unregistered)', a.workflow_status ?? '-', a.current_task?.task_id ?? '-', String(a.completed_tasks), a.last_seen ?? '-']),
    ) || 'No agents yet.\n',
  'agent.show': (d) =>
    `${d.agent_id}${d.registered ? ` · ${d.name} (${d.role})` : ' (not registered)'}\n` +
    `  workflow: ${d.workflow_status ?? '-'}\n  current task: ${d.current_task ? `${d.current_task.task_id} ${d.current_task.title}` : '-'}\n` +
    `  completed: ${d.completed_tasks} · in review: ${d.tasks_in_review}\n  last seen: ${d.last_seen ?? '-'}\n${d.skills.length ? `  skills: ${d.skills.join(', ')}\n` : ''}`,
  'person.key': (d) =>
    `${d.replaced ? `New key of ${d.name} (the old one stops working once ${d.file} is committed; outside git, at once)` : `Key of ${d.name}`}. It is shown only this once; keep it in your CI's secrets as AGENTBOARD_PERSON_KEY:\n\n  ${d.person_key}\n\n` +
    `${d.file} records its SHA-256. Commit that file: in a git repository the key is taken only once its entry is committed.\n`,
  'reviewer.remove': (d) => `Revoked the key of reviewer ${d.name}; it no longer works.\n`,
  'reviewer.add': (d) => `Review key for reviewer ${d.name}${d.rotated ? ' (the old key no longer works)' : ''}. It is shown only this once; give it to the reviewer agent:\n\n  ${d.review_key}\n`,
  'session.status': workflow,
  'session.block': workflow,
  'session.submit': workflow,
  'session.show': workflow,
  'session.history': (d) =>
    d.session === 0 ? `${d.agent_id}: no session yet (its first call that does work opens one)\n` :
    `${d.agent_id}: ${d.status} (session ${d.session})\n` +
    (d.moves.map((m: Data) => `  ${m.at}  ${m.from ?? '-'} → ${m.to}${m.message ? `: ${m.message}` : ''}`).join('\n') || '  no moves') +
    '\n',
  'input.ask': (d) =>
    `${d.request.agent_id} asked ${d.input_id}; a person can answer until ${d.expires_at}, then the default action applies: ${d.request.default_action}\nRead the answer with ${refTo('session.show', { agent_id: d.request.agent_id })}.\n`,
  'input.list': (d) =>
    d.inputs.length === 0
      ? 'No input requests.\n'
      : d.inputs
          .map((i: Data) =>
            `${i.input_id} from ${i.agent_id} [${i.status}]: ${i.question}\n` +
            (i.options.length ? `  options: ${i.options.join(' | ')}\n` : '') +
            (i.resolution ? `  → ${i.resolution.type === 'timeout' ? `timed out; default action: ${i.resolution.value}` : `${i.resolution.by}: ${i.resolution.value}`}\n` : `  default at ${i.expires_at}: ${i.default_action}\n  answer with ${refTo('input.answer', { input_id: i.input_id })}\n`),
          )
          .join(''),
  'input.answer': (d) =>
    d.agent_status === 'working'
      ? `Answered ${d.request.input_id}; ${d.request.agent_id} is working again.\n`
      : `Answered ${d.request.input_id}; ${d.request.agent_id} is ${d.agent_status === null ? 'not at work' : String(d.agent_status).replace(/_/g, ' ')}, and reads the answer with ${refTo('session.show', { agent_id: d.request.agent_id })}.\n`,
  'input.expire': (d) => (d.expired.length ? d.expired.map((i: Data) => `${i.input_id} of ${i.agent_id} timed out; default action: ${i.default_action}\n`).join('') : 'No input request is past its deadline.\n'),
  'board.status': statusBoard,
  'conflict.list': (d) =>
    gitConflictLines(d) +
    (d.conflicts.length
      ? `${d.git_conflicts.length ? '\n' : ''}${d.conflicts.map((c: Data) => `${conflictLine(c)} (${c.at})\n  agentboard: ${JSON.stringify(c.agentboard)}\n  person:     ${JSON.stringify(c.person)}\n`).join('')}`
      : d.git_conflicts.length
        ? ''
        : 'No merge conflicts.\n') +
    (d.hand_edited.length ? `\nEdited by hand, merged on the next write:\n${d.hand_edited.map((f: string) => `  ${f}`).join('\n')}\n` : ''),
  'conflict.clear': (d) => `Cleared ${d.cleared} merge conflict${d.cleared === 1 ? '' : 's'}.\n`,
  'remote.enable': (d) =>
    d.changed
      ? `The board is shared through ${d.remote} (${d.url})${d.joined ? '; this clone now shows the board the remote held' : '; the remote now holds this board'}.\n${d.local_only.length ? `Not part of the shared board (not read): ${d.local_only.join(', ')}\n` : ''}Next: ${d.next_step}\n`
      : `The board is already shared through ${d.remote}; nothing changed.\n`,
  'remote.disable': (d) => (d.changed ? `The board is no longer shared through ${d.remote}${d.synced ? '' : ' (the remote could not be reached: this clone keeps the board as it last synced it)'}.\nNext: ${d.next_step}\n` : 'The board is not shared; nothing changed.\n'),
  'remote.status': (d) => {
    if (!d.shared) return `This board is not shared (${refTo('remote.enable')} shares it).\n`;
    let out = `Shared through ${d.remote}${d.url ? ` (${d.url})` : ''}, ${d.ref}\nLast sync: ${d.last_sync ?? 'never'}${d.commit ? ` · board commit ${d.commit.slice(0, 12)}` : ''}\n`;
    if (d.interrupted_push) out += `Interrupted push: ${d.interrupted_push.summary} (${d.interrupted_push.at}); the next command settles it.\n`;
    out += d.waiting.length ? `\nWaiting to be pushed:\n${d.waiting.map((e: Data) => `  #${e.id} ${e.actor}: ${e.summary} (${e.queued_at})`).join('\n')}\n` : 'Nothing waits to be pushed.\n';
    if (d.refused.length) out += `\nQueued writes the rules no longer allow (kept, not applied; remove with ${refTo('remote.drop')}):\n${d.refused.map((e: Data) => `  #${e.id} ${e.actor}: ${e.summary}\n     ${e.message}`).join('\n')}\n`;
    if (d.hand_edited.length) out += `\nEdited by hand, shared by the next write (or ${refTo('remote.sync')}):\n${d.hand_edited.map((f: string) => `  ${f}`).join('\n')}\n`;
    if (d.local_only.length) out += `\nNot part of the shared board (not read):\n${d.local_only.map((f: string) => `  ${f}`).join('\n')}\n`;
    if (d.kept.length) out += `\nYour files a sync replaced, kept:\n${d.kept.map((f: string) => `  ${f}`).join('\n')}\n`;
    return out;
  },
  'remote.sync': (d) => `Synced${d.commit ? ` at board commit ${d.commit.slice(0, 12)}` : ''}: ${d.replayed} queued write${d.replayed === 1 ? '' : 's'} pushed${d.refused ? `, ${d.refused} refused (see ${refTo('remote.status')})` : ''}${d.merged.length ? `; hand edits shared: ${d.merged.join(', ')}` : ''}.\n`,
  'remote.publish': (d) => (d.committed ? `Committed the shared board (${d.files} file${d.files === 1 ? '' : 's'}) on ${d.branch ?? 'a detached HEAD'}: ${d.commit.slice(0, 12)}.\n` : `${d.branch ?? 'The branch'} already holds the shared board as it is; nothing to commit.\n`),
  'remote.pull': (d) => asideText('Pulled', d),
  'remote.switch': (d) => asideText('Switched to', d),
  'remote.drop': (d) => `Removed the queued write #${d.dropped.id} (${d.dropped.summary}).\n`,
  'log.list': (d, p) =>
    d.entries.length ? d.entries.map((e: Data) => `${p.dim(e.at)}  ${p.color(e.actor.startsWith('human:') ? 'magenta' : 'cyan', e.actor)}  ${p.bold(e.action)}  ${e.summary}`).join('\n') + '\n' : 'The activity log is empty.\n',
};

/** What git pull or git switch did beside a shared board. */
function asideText(what: string, d: Data): string {
  const at = (commit: string | null) => commit?.slice(0, 12) ?? 'no commit';
  const moved = `${what} ${d.branch ?? 'a detached HEAD'}: ${d.before === d.after ? `at ${at(d.after)}` : `${at(d.before)} → ${at(d.after)}`}`;
  const way = d.made_way.length ? `; ${d.made_way.length} file${d.made_way.length === 1 ? '' : 's'} of the board made way for git and came back from the shared board` : '';
  return `${moved}${way}. agentd/ shows the shared board${d.board_commit ? ` (board commit ${d.board_commit.slice(0, 12)})` : ''}.\n`;
}

function taskLine(t: Data): string {
  return `${t.task_id}  [${t.status}] ${t.title}${taskState(t)}\n`;
}

const TASK_RESULT = (d: Data) => `${d.changed ? '' : '(unchanged) '}${taskLine(d.task)}${d.released_from ? `Released from ${d.released_from}.\n` : ''}${d.next_step ? `Next: ${d.next_step}\n` : ''}`;
for (const name of ['task.add', 'task.update', 'task.done', 'task.progress', 'task.block', 'task.unblock', 'task.note', 'task.release', 'task.approve', 'task.reject']) RENDERERS[name] = TASK_RESULT;

export function renderResult(opName: string, data: Data, paint: Paint = PLAIN): string {
  const render = RENDERERS[opName];
  return (render ? render(data, paint) : kv(data)) + pageEnd(opName, data);
}

/**
 * What is said beside a result rather than in it, so that the result stays exactly what it is: a
 * document's markdown is the file, fed back through --from as it is, and the feedback of people
 * who rejected it comes apart (the CLI prints it on stderr, a tool result in a text block of its own).
 */
const ASIDES: Record<string, (d: Data) => string> = {
  'document.get': (d) => feedback(d.feedback, 'Feedback from people').trimStart(),
};

export function renderAside(opName: string, data: Data): string {
  return ASIDES[opName]?.(data) ?? '';
}
