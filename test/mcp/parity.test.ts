import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setTestHooks } from '../../src/clock.js';
import { toolOperations } from '../../src/mcp/server.js';
import { changeWithTasks, cli, newBoard, ok, snapshot, tempDir, WHY } from '../helpers.js';
import { connect } from './helpers.js';

const NOW = '2026-11-22T12:00:00.000Z';
const NOTES = 'No additional notes: straightforward, nothing unexpected.';

/** Messages name the next call in each adapter's own words (a command, a tool): compare them as <call>. */
function neutral(value: unknown): unknown {
  const text = JSON.stringify(value)
    .replace(/`agentboard [^`]*`( followed by the [a-z ]+)?( giving `--[a-z-]+`((, | and )`--[a-z-]+`)*)?( \((a person's command|on the command line)\))?/g, '<call>')
    .replace(/agentboard_[a-z_]+( \{(\\"[^\\]*\\":(\\"[^\\]*\\"|\[[^\]]*\]|true|false),?)*\}( giving [a-z_]+((, (?!and )| and )[a-z_]+)*)?)?/g, '<call>');
  return JSON.parse(text);
}

describe('the CLI with --json --input and the MCP tool give the same result', () => {
  let base: string;
  let key: string;
  beforeAll(async () => {
    base = await newBoard();
    await changeWithTasks(base, 'par', [{ title: 'One', skills: ['ts'] }, { title: 'Two', depends: ['T1'] }, { title: 'Three' }, { title: 'Four' }]);
    key = (await ok(base, ['reviewer', 'add', 'rev'])).review_key;
  });
  beforeEach(() => setTestHooks({ now: () => Date.parse(NOW), boardNow: () => Date.parse(NOW) }));
  afterEach(() => setTestHooks(undefined));

  it('for every operation an agent may call, step by step, and the boards end up byte-identical', async () => {
    const viaCli = join(tempDir(), 'board');
    const viaMcp = join(tempDir(), 'board');
    cpSync(base, viaCli, { recursive: true });
    cpSync(base, viaMcp, { recursive: true });
    const mcp = await connect(viaMcp);
    const spec = (await mcp.call('agentboard_get_document', { change_id: 'par', document: 'spec' })).data.markdown;
    const steps: [string, object][] = [
      ['agentboard_register_agent', { agent_id: 'codex', name: 'Codex', role: 'Developer', skills: ['ts'] }],
      ['agentboard_get_next_task', { agent_id: 'codex' }],
      ['agentboard_report_progress', { agent_id: 'codex', task_id: 'par/T1', percent: 30, message: 'Started' }],
      ['agentboard_add_note', { agent_id: 'codex', task_id: 'par/T1', text: 'Chose A over B because C.' }],
      ['agentboard_report_blocker', { agent_id: 'codex', task_id: 'par/T1', reason: 'Waiting for a key', severity: 'low' }],
      ['agentboard_clear_blocker', { agent_id: 'codex', task_id: 'par/T1', note: 'Got the key' }],
      ['agentboard_complete_task', { agent_id: 'codex', task_id: 'par/T1' }],
      ['agentboard_complete_task', { agent_id: 'codex', task_id: 'par/T1' }],
      ['agentboard_add_task', { agent_id: 'planner', change_id: 'par', title: 'Five', priority: 'urgent' }],
      ['agentboard_update_task', { agent_id: 'planner', task_id: 'par/T5', description: 'Now with a description.' }],
      ['agentboard_delete_task', { agent_id: 'planner', task_id: 'par/T4' }],
      ['agentboard_update_status', { agent_id: 'gemini', status: 'working', message: 'Looking around' }],
      ['agentboard_get_next_task', { agent_id: 'gemini' }],
      ['agentboard_request_input', { agent_id: 'gemini', question: 'Which first?', default_action: 'T5', options: ['T5', 'T2'] }],
      ['agentboard_mark_blocked', { agent_id: 'ops-bot', reason: 'Not started' }],
      ['agentboard_submit_for_review', { agent_id: 'codex', summary: 'Nothing held, only a summary' }],
      ['agentboard_create_change', { agent_id: 'planner', change_id: 'par-two', title: 'Second change' }],
      ['agentboard_submit_proposal', { agent_id: 'planner', change_id: 'par-two', why: WHY, what_changes: 'More.', impact: 'Some.', notes: NOTES }],
      ['agentboard_create_spec', { agent_id: 'planner', change_id: 'par-two', overview: 'A second change to prove the tools and the command line agree.', requirements: [{ id: 'R1', title: 'Agree', text: 'They MUST agree.' }], scenarios: [{ name: 'Same', when: 'both run', then: 'both agree' }], notes: NOTES }],
      ['agentboard_create_tasks', { agent_id: 'planner', change_id: 'par-two', tasks: [{ title: 'Only' }], notes: NOTES }],
      ['agentboard_create_review', { agent_id: 'critic', change_id: 'par', verdict: 'MAJOR_ISSUES', summary: 'Not yet.', issues: [{ title: 'Missing', severity: 'High', description: 'Much is missing.' }], notes: NOTES }],
      ['agentboard_correct_document', { agent_id: 'fixer', review_key: key, change_id: 'par', document: 'spec', markdown: spec.replace('one agent at a time.', 'one agent at a time, always.'), notes: 'Tightened the overview.' }],
      ['agentboard_submit_proposal', { agent_id: 'late', change_id: 'par', why: WHY, what_changes: 'x', impact: 'y', notes: NOTES }],
      ['agentboard_list_changes', {}],
      ['agentboard_get_change', { change_id: 'par' }],
      ['agentboard_validate_change', { change_id: 'par' }],
      ['agentboard_get_document', { change_id: 'par', document: 'review' }],
      ['agentboard_list_documents', { awaiting: 'decision' }],
      ['agentboard_get_task', { task_id: 'par/T5' }],
      ['agentboard_list_tasks', { status: 'completed' }],
      ['agentboard_get_project_status', {}],
      ['agentboard_list_agents', {}],
      ['agentboard_get_agent_status', { agent_id: 'codex' }],
      ['agentboard_get_activity_log', { limit: 100 }],
      ['agentboard_get_workflow_state', { agent_id: 'gemini' }],
      ['agentboard_get_session_history', { agent_id: 'gemini', limit: 2 }],
      ['agentboard_list_inputs', {}],
      ['agentboard_list_conflicts', {}],
    ];
    const covered = new Set(steps.map(([tool]) => tool));
    expect([...covered].sort()).toEqual(toolOperations('all').map((op) => op.tool!.name).sort());
    for (const [tool, input] of steps) {
      const op = toolOperations('all').find((o) => o.tool!.name === tool)!;
      const fromCli = await cli(viaCli, [...op.cli.command.split(' '), '--input', '-', '--json'], { stdin: JSON.stringify(input), env: { AGENTBOARD_TEST_NOW: NOW } });
      const fromMcp = await mcp.call(tool, input);
      if (fromMcp.isError) {
        expect(fromCli.json, tool).toMatchObject({ ok: false, error: { code: fromMcp.error!.code } });
      } else {
        expect(neutral(fromCli.json), `${tool}: ${fromCli.stdout}`).toEqual({ ok: true, data: neutral(fromMcp.data) });
      }
    }
    await mcp.close();
    // The ledger records each file's inode and mtime, which two folders never share, and the last
    // commit's done journal names its temp files after the process that wrote them; everything else is byte-identical.
    const own = (k: string) => k.startsWith('.runtime/ledger/') || k === '.runtime/journal.done.json';
    const shared = (dir: string) => Object.fromEntries(Object.entries(snapshot(join(dir, 'agentd'))).filter(([k]) => !own(k)));
    expect(shared(viaCli)).toEqual(shared(viaMcp));
    expect(Object.keys(snapshot(join(viaCli, 'agentd'))).filter(own)).toEqual(Object.keys(snapshot(join(viaMcp, 'agentd'))).filter(own));
  });
});
