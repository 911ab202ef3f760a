/**
 * Guidance fits the caller: under every profile, every error code its tools can reach is provoked
 * through real tool calls, and no text the agent is shown (messages, next steps, tool descriptions,
 * the server's instructions, results' messages) names a tool the profile does not serve.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { setTestHooks, type TestHooks } from '../../src/clock.js';
import { ERROR_CODES, type ErrorCode } from '../../src/errors.js';
import { PROFILES, toolOperations, type Profile } from '../../src/mcp/server.js';
import { hooksFromEnv } from '../hooks/from-env.mjs';
import { changeWithTasks, newBoard, ok, tempDir, WHY, write } from '../helpers.js';
import { connect, type ToolResult } from './helpers.js';

const NOTES = 'No additional notes: straightforward, nothing unexpected.';
const SPEC = {
  overview: 'The change the tests write through the tools, to provoke every error an agent can meet.',
  requirements: [{ id: 'R1', title: 'Works', text: 'The feature MUST work.' }],
  scenarios: [{ name: 'It works', when: 'the feature is used', then: 'it works' }],
};
const PROPOSAL = { why: WHY, what_changes: 'A feature.', impact: 'Small.', notes: NOTES };

interface Way {
  tool: string;
  args: object;
  /** Other tools the way needs (calls made first, through the same profile). */
  before?: [string, object][];
  /** A board of its own: the shared one copied, then changed by this. */
  board?: (dir: string) => void;
  hooks?: TestHooks;
  /** The agent a bound server (agentboard mcp --as) acts for. */
  as?: string;
  /** Calls the next step names, as the agent spells them. */
  step?: string[];
}

/** Every way an agent's call can end in each code. A profile reaches the code when it serves a way's tools. */
const WAYS: Partial<Record<ErrorCode, Way[]>> = {
  INVALID_INPUT: [
    { tool: 'agentboard_get_task', args: { task_id: 'T1' } },
    // Markdown a correction cannot read: the call to make again is the tool's.
    { tool: 'agentboard_correct_document', args: { agent_id: 'rev-1', review_key: 'KEY', change_id: 'zeta', document: 'spec', markdown: '# x', notes: NOTES }, step: ['try agentboard_correct_document again'] },
  ],
  BOARD_NOT_FOUND: [{ tool: 'agentboard_get_task', args: { task_id: 'alpha/T1' }, board: (dir) => rmSync(join(dir, 'agentd'), { recursive: true }) }],
  AGENTD_BOARD: [{ tool: 'agentboard_get_task', args: { task_id: 'alpha/T1' }, board: (dir) => (rmSync(join(dir, 'agentd/config.yaml')), writeFileSync(join(dir, 'agentd/config.toml'), 'name = "x"\n')) }],
  CONFIG_INVALID: [
    { tool: 'agentboard_get_next_task', args: { agent_id: 'cfg' }, board: (dir) => writeFileSync(join(dir, 'agentd/config.yaml'), 'require_approval: sometimes\n') },
    { tool: 'agentboard_get_project_status', args: {}, board: (dir) => writeFileSync(join(dir, 'agentd/config.yaml'), 'require_approval: sometimes\n') },
  ],
  PARSE_ERROR: [{ tool: 'agentboard_get_task', args: { task_id: 'alpha/T5' }, board: (dir) => writeFileSync(join(dir, 'agentd/changes/alpha/tasks.md'), '---\nstatus: [unclosed\n---\n# Tasks\n') }],
  CHANGE_NOT_FOUND: [{ tool: 'agentboard_get_task', args: { task_id: 'nowhere/T1' } }],
  CHANGE_EXISTS: [{ tool: 'agentboard_create_change', args: { agent_id: 'planner-2', change_id: 'alpha' } }],
  CHANGE_ARCHIVED: [
    { tool: 'agentboard_add_note', args: { agent_id: 'noter', task_id: 'old/T1', text: 'Too late.' } },
    { tool: 'agentboard_add_task', args: { agent_id: 'planner-2', change_id: 'old', title: 'Too late' } },
  ],
  DOCUMENT_NOT_FOUND: [{ tool: 'agentboard_get_document', args: { change_id: 'beta', document: 'tasks' } }],
  DOCUMENT_SUBMITTED: [{ tool: 'agentboard_submit_proposal', args: { agent_id: 'planner-2', change_id: 'beta', ...PROPOSAL } }],
  DOCUMENT_APPROVED: [
    { tool: 'agentboard_submit_proposal', args: { agent_id: 'planner-2', change_id: 'delta', ...PROPOSAL } },
    { tool: 'agentboard_create_review', args: { agent_id: 'critic-2', change_id: 'eps', verdict: 'APPROVED', summary: 'Again.', notes: NOTES } },
  ],
  DOCUMENT_NOT_SUBMITTED: [{ tool: 'agentboard_correct_document', args: { agent_id: 'rev-1', review_key: 'KEY', change_id: 'delta', document: 'proposal', markdown: '# x', notes: NOTES } }],
  DOCUMENT_HELD: [{ tool: 'agentboard_submit_proposal', args: { agent_id: 'planner-2', change_id: 'gamma', ...PROPOSAL } }],
  PHASE_NOT_READY: [
    { tool: 'agentboard_create_tasks', args: { agent_id: 'planner-2', change_id: 'beta', tasks: [{ title: 'Early' }], notes: NOTES } },
    { tool: 'agentboard_create_review', args: { agent_id: 'critic-2', change_id: 'beta', verdict: 'APPROVED', summary: 'Early.', notes: NOTES } },
    { tool: 'agentboard_add_task', args: { agent_id: 'planner-2', change_id: 'beta', title: 'Early' } },
    { tool: 'agentboard_add_task', args: { agent_id: 'planner-2', change_id: 'beta', title: 'Early' }, board: approving('proposal') },
    { tool: 'agentboard_add_task', args: { agent_id: 'planner-2', change_id: 'zeta', title: 'Early' }, board: approving('proposal') },
    { tool: 'agentboard_create_tasks', args: { agent_id: 'planner-2', change_id: 'zeta', tasks: [{ title: 'Early' }], notes: NOTES }, board: approving('spec') },
    // A submitted spec broken by hand: it is fixed in its file, as an agent cannot submit it again.
    { tool: 'agentboard_create_tasks', args: { agent_id: 'planner-2', change_id: 'zeta', tasks: [{ title: 'Early' }], notes: NOTES }, board: (dir) => appendFileSync(join(dir, 'agentd/changes/zeta/spec.md'), '\n## Overview\n\nAgain.\n') },
  ],
  VALIDATION_FAILED: [
    { tool: 'agentboard_create_tasks', args: { agent_id: 'planner-2', change_id: 'zeta', tasks: [{ title: 'Waits', depends: ['T9'] }], notes: NOTES } },
    { tool: 'agentboard_delete_task', args: { agent_id: 'planner', task_id: 'alpha/T5' } },
  ],
  TASK_NOT_FOUND: [
    { tool: 'agentboard_get_task', args: { task_id: 'alpha/T99' } },
    { tool: 'agentboard_get_task', args: { task_id: 'zeta/T1' } },
    { tool: 'agentboard_get_task', args: { task_id: 'beta/T1' }, board: approving('proposal') },
  ],
  TASK_EXISTS: [{ tool: 'agentboard_add_task', args: { agent_id: 'planner-2', change_id: 'alpha', id: 'T1', title: 'Again' } }],
  TASK_HELD: [
    { tool: 'agentboard_complete_task', args: { agent_id: 'intruder', task_id: 'alpha/T1' } },
    { tool: 'agentboard_add_note', args: { agent_id: 'intruder', task_id: 'alpha/T1', text: 'Mine now.' } },
    { tool: 'agentboard_update_task', args: { agent_id: 'intruder', task_id: 'alpha/T1', title: 'Mine now' } },
  ],
  TASK_IN_REVIEW: [
    { tool: 'agentboard_add_note', args: { agent_id: 'subm', task_id: 'alpha/T3', text: 'While in review.' } },
    { tool: 'agentboard_update_task', args: { agent_id: 'subm', task_id: 'alpha/T3', title: 'While in review' } },
  ],
  TASK_NOT_READY: [
    { tool: 'agentboard_complete_task', args: { agent_id: 'eager', task_id: 'alpha/T2' } },
    { tool: 'agentboard_update_task', args: { agent_id: 'eager', task_id: 'alpha/T2', priority: 'high' } },
    { tool: 'agentboard_report_progress', args: { agent_id: 'finisher', task_id: 'alpha/T4', percent: 100, message: 'Done already.' } },
  ],
  TASK_IN_PROGRESS: [
    { tool: 'agentboard_submit_for_review', args: { agent_id: 'owner', summary: 'Done, without naming my task.' } },
    {
      // Its blocked task, while it works on another one: that one is finished first.
      tool: 'agentboard_complete_task',
      args: { agent_id: 'blk-2', task_id: 'alpha/T5' },
      board: () => undefined,
      before: [
        ['agentboard_get_next_task', { agent_id: 'blk-2' }],
        ['agentboard_report_blocker', { agent_id: 'blk-2', task_id: 'alpha/T5', reason: 'No key.' }],
        ['agentboard_get_next_task', { agent_id: 'blk-2' }],
      ],
      step: ['then unblock alpha/T5 with agentboard_clear_blocker {"agent_id":"blk-2","task_id":"alpha/T5"}'],
    },
    { tool: 'agentboard_delete_task', args: { agent_id: 'owner', task_id: 'alpha/T1' } },
    { tool: 'agentboard_update_status', args: { agent_id: 'owner', status: 'completed', message: 'Done, my task still in progress.' } },
  ],
  TASK_NOT_YOURS: [{ tool: 'agentboard_delete_task', args: { agent_id: 'planner-2', task_id: 'alpha/T5' } }],
  INVALID_TRANSITION: [
    {
      tool: 'agentboard_update_status',
      args: { agent_id: 'waiter', status: 'completed', message: 'Done while waiting.' },
      before: [['agentboard_request_input', { agent_id: 'waiter', question: 'Which one?', default_action: 'The first.' }]],
    },
    {
      tool: 'agentboard_report_progress',
      args: { agent_id: 'blk', task_id: 'alpha/T5', percent: 50, message: 'While blocked.' },
      before: [
        ['agentboard_get_next_task', { agent_id: 'blk' }],
        ['agentboard_report_blocker', { agent_id: 'blk', task_id: 'alpha/T5', reason: 'No key.' }],
      ],
    },
    {
      tool: 'agentboard_complete_task',
      args: { agent_id: 'blk', task_id: 'alpha/T5' },
      // On a board of its own: the agent holds no other task, so clearing the blocker is its way on.
      board: () => undefined,
      before: [
        ['agentboard_get_next_task', { agent_id: 'blk' }],
        ['agentboard_report_blocker', { agent_id: 'blk', task_id: 'alpha/T5', reason: 'No key.' }],
      ],
      step: ['agentboard_clear_blocker {"agent_id":"blk","task_id":"alpha/T5"} first, then', 'agentboard_complete_task {"agent_id":"blk","task_id":"alpha/T5"}'],
    },
  ],
  REVIEW_KEY_INVALID: [{ tool: 'agentboard_correct_document', args: { agent_id: 'rev-1', review_key: 'abrk_not-the-key', change_id: 'zeta', document: 'spec', markdown: '# x', notes: NOTES } }],
  AGENT_NOT_FOUND: [{ tool: 'agentboard_get_agent_status', args: { agent_id: 'ghost' } }],
  INPUT_ALREADY_OPEN: [{ tool: 'agentboard_request_input', args: { agent_id: 'asker', question: 'Again?', default_action: 'Go on.' } }],
  SELF_REVIEW: [{ tool: 'agentboard_create_review', args: { agent_id: 'planner', change_id: 'alpha', verdict: 'APPROVED', summary: 'Mine.', notes: NOTES } }],
  AGENT_MISMATCH: [{ tool: 'agentboard_update_status', args: { agent_id: 'someone-else', status: 'working', message: 'Not me.' }, as: 'bound' }],
  DISK_FULL: [{ tool: 'agentboard_update_status', args: { agent_id: 'disk', status: 'working', message: 'm' }, hooks: hooksFromEnv({ AGENTBOARD_TEST_FAULT: 'errno:ENOSPC:' }) }],
  PERMISSION_DENIED: [{ tool: 'agentboard_update_status', args: { agent_id: 'disk', status: 'working', message: 'm' }, hooks: hooksFromEnv({ AGENTBOARD_TEST_FAULT: 'errno:EACCES:' }) }],
  READ_ONLY: [{ tool: 'agentboard_update_status', args: { agent_id: 'disk', status: 'working', message: 'm' }, hooks: hooksFromEnv({ AGENTBOARD_TEST_FAULT: 'errno:EROFS:' }) }],
  IO_ERROR: [{ tool: 'agentboard_update_status', args: { agent_id: 'disk', status: 'working', message: 'm' }, hooks: hooksFromEnv({ AGENTBOARD_TEST_FAULT: 'errno:EIO:' }) }],
  INTERNAL: [{ tool: 'agentboard_update_status', args: { agent_id: 'disk', status: 'working', message: 'm' }, hooks: hooksFromEnv({ AGENTBOARD_TEST_FAULT: 'throw:commit:staged' }) }],
  NOT_A_FILE: [{ tool: 'agentboard_get_task', args: { task_id: 'alpha/T1' }, board: (dir) => (rmSync(join(dir, 'agentd/changes/alpha/tasks.md')), mkdirSync(join(dir, 'agentd/changes/alpha/tasks.md'))) }],
  NOT_A_FOLDER: [{ tool: 'agentboard_get_task', args: { task_id: 'stray/T1' }, board: (dir) => writeFileSync(join(dir, 'agentd/changes/stray'), 'not a change\n') }],
  UNSAFE_PATH: [{ tool: 'agentboard_get_task', args: { task_id: 'linked/T1' }, board: (dir) => symlinkSync(join(dir, 'agentd/changes/alpha'), join(dir, 'agentd/changes/linked')) }],
  NOT_A_GIT_REPOSITORY: [{ tool: 'agentboard_update_status', args: { agent_id: 'far', status: 'working', message: 'm' }, board: (dir) => shared(dir) }],
  REMOTE_NOT_FOUND: [{ tool: 'agentboard_update_status', args: { agent_id: 'far', status: 'working', message: 'm' }, board: (dir) => (git(dir, ['init', '-q']), shared(dir)) }],
  REMOTE_UNREACHABLE: [{ tool: 'agentboard_update_status', args: { agent_id: 'far', status: 'working', message: 'm' }, board: (dir) => (git(dir, ['init', '-q']), git(dir, ['remote', 'add', 'origin', join(dir, 'nowhere.git')]), shared(dir)) }],
  REMOTE_NO_BOARD: [{ tool: 'agentboard_update_status', args: { agent_id: 'far', status: 'working', message: 'm' }, board: (dir) => (git(dir, ['init', '-q']), git(dir, ['remote', 'add', 'origin', bareRemote(dir, 'empty.git')]), shared(dir)) }],
  REMOTE_NOT_CONFIGURED: [{ tool: 'agentboard_update_status', args: { agent_id: 'far', status: 'working', message: 'm' }, board: (dir) => (mkdirSync(join(dir, 'agentd/.runtime/remote'), { recursive: true }), writeFileSync(join(dir, 'agentd/.runtime/remote/synced.json'), '{"remote":"origin","commit":"","listing":{}}\n')) }],
  REMOTE_REFUSED: [{ tool: 'agentboard_update_status', args: { agent_id: 'far', status: 'working', message: 'm' }, board: (dir) => (git(dir, ['init', '-q']), git(dir, ['remote', 'add', 'origin', refusingRemote(dir)]), shared(dir)) }],
};

/** The board with config.yaml requiring a person's approval of these phases. */
function approving(...phases: string[]): (dir: string) => void {
  return (dir) => writeFileSync(join(dir, 'agentd/config.yaml'), `require_approval: [${phases.join(', ')}]\n`);
}

/** What the tools that write a pipeline document need besides change_id and agent_id, to follow a next step that names one. */
const WRITERS: Record<string, object> = {
  agentboard_submit_proposal: PROPOSAL,
  agentboard_create_spec: { ...SPEC, notes: NOTES },
  agentboard_create_tasks: { tasks: [{ title: 'Followed' }], notes: NOTES },
  agentboard_create_review: { verdict: 'APPROVED', summary: 'Followed.', notes: NOTES },
};

/** The codes of a write refused for the state of its change or document, not for who calls or what it says. */
const STATE_REFUSALS = ['PHASE_NOT_READY', 'DOCUMENT_SUBMITTED', 'DOCUMENT_APPROVED', 'INVALID_TRANSITION'];

/** The board shared through the git remote origin (config.yaml says so, as `agentboard remote enable` writes it). */
function shared(dir: string): void {
  appendFileSync(join(dir, 'agentd/config.yaml'), '\nremote: origin\n');
}

function git(dir: string, args: string[]): void {
  const r = spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

/** A bare repository next to the board. */
function bareRemote(dir: string, name: string): string {
  const remote = join(dir, '..', name);
  git(dir, ['init', '-q', '--bare', remote]);
  return remote;
}

/** A bare repository next to the board that holds a (blank) shared board, and whose hook refuses every push. */
function refusingRemote(dir: string): string {
  const remote = bareRemote(dir, 'refusing.git');
  const tree = spawnSync('git', ['mktree'], { cwd: remote, input: '', encoding: 'utf8' }).stdout.trim();
  const commit = spawnSync('git', ['-c', 'user.name=board', '-c', 'user.email=board@example.com', 'commit-tree', tree, '-m', 'agentboard: the board is shared'], { cwd: remote, encoding: 'utf8' }).stdout.trim();
  git(remote, ['update-ref', 'refs/agentboard/board', commit]);
  writeFileSync(join(remote, 'hooks', 'pre-receive'), '#!/bin/sh\necho "pushes to the board are closed" >&2\nexit 1\n', { mode: 0o755 });
  return remote;
}

const HUMAN = 'no tool serves it: it is raised by operations reserved to people (the CLI), which are not tools';
const CLI_ONLY = 'raised only by the command line, which reads who runs it from the terminal and the environment';
const ENGINE = 'raised only by `agentboard run`, which starts agents; no tool runs one';

/** Codes a profile cannot reach, each with the reason; a profile not named reaches the code. */
const UNREACHABLE: Partial<Record<ErrorCode, { reason: string; profiles?: Profile[] }>> = {
  USAGE: { reason: 'a tool name no profile serves is a protocol error, JSON-RPC invalid params (test/mcp/tools.test.ts), not a tool result; the code is the CLI\'s, for bad usage' },
  INPUT_TOO_LARGE: { reason: 'over MCP an oversized message is refused by the transport with a JSON-RPC error (test/mcp/stdio.test.ts); the code is the CLI\'s, for input files' },
  IMPORT_REFUSED: { reason: HUMAN },
  BOARD_BUSY: { reason: 'needs the board lock held by a live process for the whole wait (120 s), or the server stopped by a signal while a call waits for it; test/store/lock.test.ts and test/mcp/stdio.test.ts provoke it' },
  BOARD_CHANGED: { reason: 'needs a file rewritten while the write is under way, or the lock taken over; the race tests provoke it' },
  BOARD_EXISTS: { reason: HUMAN },
  HUMAN_ONLY: { reason: HUMAN },
  AGENT_ENVIRONMENT: { reason: CLI_ONLY },
  ROLE_REFUSED: { reason: 'over MCP it refuses a tool of another profile, which the ways here (tools the profile serves) never call (test/mcp/tools.test.ts); otherwise the command line raises it' },
  PERSON_REQUIRED: { reason: CLI_ONLY },
  PERSON_KEY_INVALID: { reason: CLI_ONLY },
  PERSON_MISMATCH: { reason: CLI_ONLY },
  ACTOR_REQUIRED: { reason: CLI_ONLY },
  REVIEWER_EXISTS: { reason: HUMAN },
  INPUT_NOT_FOUND: { reason: HUMAN },
  INPUT_RESOLVED: { reason: HUMAN },
  ARCHIVE_REFUSED: { reason: HUMAN },
  MCP_CONFIG_INVALID: { reason: HUMAN },
  REVIEWER_NOT_FOUND: { reason: HUMAN },
  RUN_NOT_CONFIGURED: { reason: ENGINE },
  RUN_REFUSED: { reason: ENGINE },
  RUN_NOT_FOUND: { reason: ENGINE },
  REMOTE_BUSY: { reason: 'a shared write gives up only after losing the race to other clones for two minutes on end; test/remote races clones without waiting that long' },
  REMOTE_ENABLED: { reason: HUMAN },
  REMOTE_NOT_ENABLED: { reason: HUMAN },
  QUEUED_WRITE_REFUSED: { reason: 'a queued write the rules refuse when it is replayed is kept for a person and listed by `agentboard remote status`; the call that replayed it goes on (test/remote/offline.test.ts)' },
  QUEUE_NOT_EMPTY: { reason: HUMAN },
  QUEUED_WRITE_NOT_FOUND: { reason: HUMAN },
  GIT_FAILED: { reason: HUMAN },
  HAND_EDITED: { reason: HUMAN },
  CHANGE_EXISTS: { reason: 'only agentboard_create_change refuses an existing change (submitting a proposal creates one or revises it)', profiles: ['worker', 'reviewer', 'agent'] },
  DOCUMENT_NOT_FOUND: { reason: 'the worker profile reads no documents', profiles: ['worker'] },
  DOCUMENT_SUBMITTED: { reason: 'no document-writing tool of the profile resubmits a submitted document (a review is written in rounds; a reviewer corrects one instead)', profiles: ['worker', 'reviewer'] },
  DOCUMENT_APPROVED: { reason: 'the worker profile writes no documents', profiles: ['worker'] },
  DOCUMENT_NOT_SUBMITTED: { reason: 'only agentboard_correct_document (reviewers) needs a submitted document', profiles: ['worker', 'planner', 'agent'] },
  DOCUMENT_HELD: { reason: 'only submitting a proposal, spec or task list meets a document another agent revises', profiles: ['worker', 'reviewer'] },
  PHASE_NOT_READY: { reason: 'the worker profile writes no documents and adds no tasks', profiles: ['worker'] },
  VALIDATION_FAILED: {
    reason: 'a worker writes no documents and deletes no tasks; a review breaks no rule its schema lets through, and a corrected document is checked as its markdown is read (INVALID_INPUT)',
    profiles: ['worker', 'reviewer'],
  },
  TASK_EXISTS: { reason: 'only agentboard_add_task takes a task id to create', profiles: ['worker', 'reviewer', 'agent'] },
  TASK_NOT_READY: { reason: 'no tool of the profile claims a task (agentboard_add_note touches tasks without taking them)', profiles: ['reviewer'] },
  TASK_NOT_YOURS: { reason: 'only agentboard_delete_task (planners) refuses a task of a list another wrote', profiles: ['worker', 'reviewer', 'agent'] },
  REVIEW_KEY_INVALID: { reason: 'only agentboard_correct_document takes a review key', profiles: ['worker', 'planner', 'agent'] },
  AGENT_NOT_FOUND: { reason: 'only agentboard_get_agent_status looks an agent up', profiles: ['worker', 'agent'] },
  SELF_REVIEW: { reason: 'only agentboard_create_review (reviewers) writes a review', profiles: ['worker', 'planner', 'agent'] },
};

/** A placeholder in guidance, like `agentboard new <change_id>`. */
const PLACEHOLDER = /<[a-z][a-z_-]*>/;

/** The tool names a text mentions. */
function toolNames(text: string): string[] {
  return [...text.matchAll(/agentboard_[a-z_]+/g)].map((m) => m[0]);
}

let base: string;
let key: string;

beforeAll(async () => {
  base = await newBoard();
  await changeWithTasks(base, 'alpha', [{ title: 'Held' }, { title: 'Waits', depends: ['T1'] }, { title: 'In review' }, { title: 'Done' }, { title: 'Free' }, { title: 'Needs T5', depends: ['T5'] }]);
  await ok(base, ['next', '--as', 'owner']);
  await ok(base, ['next', '--as', 'subm']);
  await ok(base, ['session', 'submit', '--as', 'subm', '--task', 'alpha/T3', '--summary', 'Please check.']);
  await ok(base, ['next', '--as', 'finisher']);
  await ok(base, ['task', 'done', 'alpha/T4', '--as', 'finisher']);
  await ok(base, ['propose', 'beta', '--as', 'planner', '--why', WHY, '--what-changes', 'x', '--impact', 'y', '--notes', NOTES]);
  await ok(base, ['propose', 'gamma', '--as', 'planner', '--why', WHY, '--what-changes', 'x', '--impact', 'y', '--notes', NOTES]);
  await ok(base, ['reject', 'gamma', 'proposal', '--feedback', 'Say who has the problem.']);
  await ok(base, ['next', '--as', 'reviser', '--change', 'gamma']);
  await ok(base, ['propose', 'delta', '--as', 'planner', '--why', WHY, '--what-changes', 'x', '--impact', 'y', '--notes', NOTES]);
  await ok(base, ['approve', 'delta', 'proposal']);
  await ok(base, ['propose', 'zeta', '--as', 'planner', '--why', WHY, '--what-changes', 'x', '--impact', 'y', '--notes', NOTES]);
  await ok(base, ['spec', 'zeta', '--as', 'planner', '--input', write(base, 'zeta-spec.json', JSON.stringify({ ...SPEC, notes: NOTES }))]);
  const review = (verdict: string) => write(base, `review-${verdict}.json`, JSON.stringify({ verdict, summary: 'Reviewed.', notes: NOTES }));
  await changeWithTasks(base, 'eps', [{ title: 'Only' }]);
  await ok(base, ['review', 'eps', '--as', 'critic', '--input', review('APPROVED')]);
  await ok(base, ['approve', 'eps', 'review']);
  await changeWithTasks(base, 'old', [{ title: 'Only' }]);
  await ok(base, ['next', '--as', 'oldie', '--change', 'old']);
  await ok(base, ['task', 'done', 'old/T1', '--as', 'oldie']);
  await ok(base, ['review', 'old', '--as', 'critic', '--input', review('APPROVED')]);
  await ok(base, ['archive', 'old']);
  await ok(base, ['ask', '--as', 'asker', '--question', 'Which way?', '--default-action', 'The first way.']);
  key = (await ok(base, ['reviewer', 'add', 'rev'])).review_key;
}, 60_000);

function copyOf(dir: string): string {
  const copy = join(tempDir(), 'board');
  cpSync(dir, copy, { recursive: true, verbatimSymlinks: true });
  return copy;
}

/** Commands that only read: an agent runs them without its id. */
const READ_COMMANDS = /^agentboard (list|show|status|log|docs|inputs|validate|task (list|show)|agent (list|show))\b/;

/** The arguments of a way, with the real review key. */
function argsOf(way: Way): object {
  return 'review_key' in way.args && way.args.review_key === 'KEY' ? { ...way.args, review_key: key } : way.args;
}

describe.each(PROFILES)('the %s profile', (profile) => {
  it('reaches every error code its tools can, and names only tools it serves', async () => {
    const served = new Set(toolOperations(profile).map((op) => op.tool!.name));
    const shown: { what: string; text: string }[] = [];
    const dir = copyOf(base);
    const main = await connect(dir, profile);
    shown.push({ what: 'instructions', text: main.client.getInstructions() ?? '' });
    shown.push({ what: 'tools/list', text: JSON.stringify((await main.client.listTools()).tools) });
    const record = (what: string, r: ToolResult) => shown.push({ what, text: r.text });

    const reached: ErrorCode[] = [];
    let followedSteps = 0;
    for (const code of ERROR_CODES) {
      const ways = (WAYS[code] ?? []).filter((w) => (served.has(w.tool) || w.tool === 'agentboard_approve_document') && (w.before ?? []).every(([t]) => served.has(t)));
      const unreachable = UNREACHABLE[code];
      const listed = unreachable !== undefined && (unreachable.profiles === undefined || unreachable.profiles.includes(profile));
      if (ways.length === 0) {
        expect(listed, `${profile}: ${code} is neither provoked nor listed as unreachable with a reason`).toBe(true);
        continue;
      }
      expect(listed, `${profile}: ${code} is listed as unreachable, yet ${ways[0]!.tool} reaches it`).toBe(false);
      for (const way of ways) {
        const separate = way.board !== undefined || way.as !== undefined;
        const boardDir = way.board ? copyOf(base) : dir;
        way.board?.(boardDir);
        const mcp = separate ? await connect(boardDir, profile, way.as ? { agentId: way.as } : undefined) : main;
        for (const [tool, args] of way.before ?? []) record(`${code} before`, await mcp.call(tool, args));
        if (way.hooks) setTestHooks(way.hooks);
        let r: ToolResult;
        try {
          r = await mcp.call(way.tool, argsOf(way));
        } finally {
          if (way.hooks) setTestHooks(undefined);
        }
        if (separate) await mcp.close();
        expect(r.error?.code, `${profile}: ${way.tool} ${JSON.stringify(way.args)}: ${r.text}`).toBe(code);
        record(`${code} from ${way.tool}`, r);
        for (const call of way.step ?? []) expect(r.error!.next_step, `${profile}: ${way.tool}`).toContain(call);
        // A next step that sends the agent to write a document names a write the board takes now: followed, it is not refused for the state of the change.
        for (const [, tool, args] of (r.error?.next_step ?? '').matchAll(/(agentboard_[a-z_]+) (\{[^}]*\})/g)) {
          if (!WRITERS[tool!]) continue;
          const followed = await connect(copyOf(boardDir), profile);
          const after = await followed.call(tool!, { agent_id: 'follower', ...WRITERS[tool!], ...JSON.parse(args!) });
          await followed.close();
          expect(STATE_REFUSALS, `${profile}: ${way.tool} said "${r.error!.next_step}", and ${tool} answered ${after.text}`).not.toContain(after.error?.code);
          followedSteps++;
        }
      }
      reached.push(code);
    }

    // Results speak too: the messages of work handed out, resumed, and of nothing left.
    if (served.has('agentboard_get_next_task')) {
      for (const agent of ['newcomer', 'newcomer', 'owner', 'subm', 'reviser']) record(`next for ${agent}`, await main.call('agentboard_get_next_task', { agent_id: agent }));
    }
    for (const tool of ['agentboard_list_changes', 'agentboard_get_project_status', 'agentboard_list_inputs']) {
      if (served.has(tool)) record(`${tool} as markdown`, await main.call(tool, { response_format: 'markdown' }));
    }
    await main.close();

    for (const { what, text } of shown) {
      const missing = toolNames(text).filter((name) => !served.has(name) && name !== 'agentboard_approve_document');
      expect(missing, `${profile}, ${what}: ${text.slice(0, 600)}`).toEqual([]);
      expect(text, `${profile}, ${what}: a reference was left unspelled`).not.toMatch(/[\uFDD0\uFDD1]/);
      // A command an agent runs itself names the agent (--as): run without it, it would act as a person.
      for (const [, cmd, after] of text.matchAll(/`(agentboard [^`]*)`([^(`]{0,120}(?:`--as`[^(`]{0,60})?)\(on the command line\)/g)) {
        if (!READ_COMMANDS.test(cmd!)) expect(`${cmd}${after}`, `${profile}, ${what}: an agent's command without its id`).toMatch(/--as/);
      }
      // An agent calls tools: it has no command to run again (a disk, a remote or markdown that refused the call).
      expect(text, `${profile}, ${what}: worded for the command line`).not.toMatch(/run the (same )?command|command again/i);
      if (process.env.DUMP) console.log(`${profile} | ${what} | ${text.slice(0, 700)}`);
    }
    // Guidance leaves out what the profile cannot follow, rather than sending the agent to the command line.
    for (const { what, text } of shown.slice(0, 2)) expect(text, `${profile}, ${what}`).not.toContain('on the command line');
    // Guidance names real values or says what to give in words: no placeholder to copy as a value.
    for (const { what, text } of shown.slice(2)) {
      // An error is its first block; the notes of what the call did before it was refused may follow it.
      const guidance = text.startsWith('{"error":') ? JSON.parse(text.split('\n')[0]!).error.next_step : text;
      expect(guidance, `${profile}, ${what}: a placeholder`).not.toMatch(PLACEHOLDER);
    }
    expect(reached.length).toBeGreaterThan(10);
    if (served.has('agentboard_create_spec')) expect(followedSteps).toBeGreaterThan(0);
  }, 60_000);
});

describe('with no open change left', () => {
  let archivedOnly: string;
  beforeAll(async () => {
    archivedOnly = await newBoard();
    await changeWithTasks(archivedOnly, 'old', [{ title: 'Only' }]);
    await ok(archivedOnly, ['next', '--as', 'oldie']);
    await ok(archivedOnly, ['task', 'done', 'old/T1', '--as', 'oldie']);
    await ok(archivedOnly, ['review', 'old', '--as', 'critic', '--input', write(archivedOnly, 'review.json', JSON.stringify({ verdict: 'APPROVED', summary: 'Reviewed.', notes: NOTES }))]);
    await ok(archivedOnly, ['archive', 'old']);
  }, 60_000);

  it.each(PROFILES)('the %s profile is guided without placeholders, and a bad field is named as the field', async (profile) => {
    const served = new Set(toolOperations(profile).map((op) => op.tool!.name));
    const mcp = await connect(archivedOnly, profile);
    if (served.has('agentboard_add_note')) {
      const note = await mcp.call('agentboard_add_note', { agent_id: 'noter', task_id: 'old/T1', text: 'Too late.' });
      expect(note.error?.code).toBe('CHANGE_ARCHIVED');
      expect(note.error!.next_step).not.toMatch(PLACEHOLDER);
      if (!served.has('agentboard_submit_proposal')) expect(note.error!.next_step).toContain('`agentboard new --as noter` followed by the change id (on the command line)');
    }
    if (served.has('agentboard_get_project_status')) {
      const status = await mcp.call('agentboard_get_project_status', {});
      expect(status.text).toContain('create one with');
      expect(status.text).not.toMatch(PLACEHOLDER);
    }
    // Board-wide reads say that they leave the archived change out, and name the calls that read it.
    const reads: [string, string][] = [['agentboard_list_tasks', 'agentboard_list_tasks'], ['agentboard_list_documents', 'agentboard_list_documents'], ['agentboard_get_project_status', 'agentboard_get_change']];
    for (const [tool, readOne] of reads.filter(([t]) => served.has(t))) {
      const note = `1 archived change is left out: list it with agentboard_list_changes {"archived":true}; read it with ${readOne} {"change_id":"old"}.`;
      const r = await mcp.call(tool, {});
      expect(r.data, tool).toMatchObject({ archived_left_out: 1, archived_note: note });
      expect(r.text, tool).toContain(note);
      expect((await mcp.call(tool, { response_format: 'json' })).text, tool).toContain(JSON.stringify(note));
    }
    if (served.has('agentboard_get_activity_log')) {
      const log = await mcp.call('agentboard_get_activity_log', { since: 'yesterday' });
      expect(log.error?.code).toBe('INVALID_INPUT');
      expect(log.error!.message).toMatch(/^Invalid input: since: "yesterday" is not a time: give an ISO date/);
      expect(log.text).not.toContain('--since');
    }
    await mcp.close();
  });
});

describe('the instructions, per profile', () => {
  it('promise a rejected document to revise only to profiles that write documents', async () => {
    const dir = await newBoard();
    const said: Record<string, string> = {};
    for (const profile of ['worker', 'agent', 'all'] as const) {
      const mcp = await connect(dir, profile);
      said[profile] = mcp.client.getInstructions() ?? '';
      await mcp.close();
    }
    expect(said.worker).toContain('Get work with agentboard_get_next_task: one task, already yours. ');
    expect(said.worker).not.toContain('rejected document');
    for (const profile of ['agent', 'all']) expect(said[profile]).toContain('one task, already yours (or a rejected document to revise, with its feedback).');
  });

  it('say that skills match tasks only to profiles that are handed tasks', async () => {
    const dir = await newBoard();
    for (const [profile, told] of [['worker', true], ['reviewer', false], ['planner', false]] as const) {
      const mcp = await connect(dir, profile);
      const said = mcp.client.getInstructions() ?? '';
      const register = (await mcp.client.listTools()).tools.find((t) => t.name === 'agentboard_register_agent')!.description!;
      await mcp.close();
      expect(said).toContain('Register once with agentboard_register_agent.');
      expect(said.includes('match tasks to you'), profile).toBe(told);
      expect(register.includes('match tasks to you'), profile).toBe(told);
    }
  });
});
