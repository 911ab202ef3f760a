/**
 * `agentboard demo`: a board in a temporary folder, worked the way it is meant to be. Agents call
 * the tools of real `agentboard mcp` servers (one process each); the person runs the real
 * `agentboard` command. Every call is printed, and the board is printed at the end.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Io } from './main.js';

const CHANGE = 'add-search';
const NO_NOTES = 'No additional notes: straightforward document, nothing unexpected.';

interface Agent {
  name: string;
  call: (tool: string, args: Record<string, unknown>) => Promise<any>;
  close: () => Promise<void>;
}

function brief(args: Record<string, unknown>): string {
  const shown = Object.entries(args)
    .filter(([k]) => k !== 'agent_id')
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? JSON.stringify(v.length > 48 ? `${v.slice(0, 45)}...` : v) : Array.isArray(v) ? `[${v.length}]` : JSON.stringify(v)}`);
  return shown.join(', ');
}

async function startAgent(io: Io, bin: string, dir: string, name: string, profile: string): Promise<Agent> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', '--root', dir, '--profile', profile], env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir }, stderr: 'ignore' });
  const client = new Client({ name: `demo-${name}`, version: '1.0.0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  io.out(`  ${name} connected to agentboard mcp --profile ${profile} (${tools.length} tools)\n`);
  return {
    name,
    close: () => client.close(),
    call: async (tool, args) => {
      const full = { agent_id: name, ...args };
      io.out(`\n${name} → ${tool}(${brief(full)})\n`);
      const r = (await client.callTool({ name: tool, arguments: full })) as { isError?: boolean; content: { text: string }[]; structuredContent?: any };
      if (r.isError) {
        const error = JSON.parse(r.content[0]!.text).error;
        io.out(`  ✗ ${error.code}: ${error.message}\n    next: ${error.next_step}\n`);
        return { error };
      }
      return r.structuredContent;
    },
  };
}

export async function runDemo(io: Io, options: { keep: boolean }): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'agentboard-demo-'));
  const bin = process.argv[1]!;
  const agents: Agent[] = [];
  const person = (args: string[]): string => {
    io.out(`\n$ agentboard ${args.map((a) => (/[\s"'{}]/.test(a) ? JSON.stringify(a) : a)).join(' ')}\n`);
    const r = spawnSync(process.execPath, [bin, ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, USER: process.env.USER || 'demo' } });
    if (r.status !== 0 && !(args[0] === 'validate' && r.status === 1)) throw new Error(`agentboard ${args.join(' ')} failed: ${r.stderr || r.stdout}`);
    io.out(`${r.stdout.trimEnd().replace(/^/gm, '  ')}\n`);
    return r.stdout;
  };
  const say = (text: string) => io.out(`  ${text}\n`);
  try {
    io.out(`agentboard demo in ${dir}\n\nA person creates the board; four agents connect, each through its own MCP server process.\n`);
    person(['init']);
    const claude = await startAgent(io, bin, dir, 'claude', 'planner');
    const codex = await startAgent(io, bin, dir, 'codex', 'worker');
    const gemini = await startAgent(io, bin, dir, 'gemini', 'worker');
    const critic = await startAgent(io, bin, dir, 'critic', 'reviewer');
    agents.push(claude, codex, gemini, critic);

    io.out('\n— The planner runs the change through proposal, spec and tasks, each checked before it is written.\n');
    await claude.call('agentboard_create_change', { change_id: CHANGE, title: 'Full-text search' });
    const early = await claude.call('agentboard_create_spec', {
      change_id: CHANGE,
      overview: 'Too short.',
      requirements: [{ id: 'R1', title: 't', text: 'It MUST.' }],
      scenarios: [{ name: 's', when: 'w', then: 't' }],
      notes: NO_NOTES,
    });
    if (early.error) say('(refused before anything was written: the overview is too short, and the proposal comes first)');
    const proposal = await claude.call('agentboard_submit_proposal', {
      change_id: CHANGE,
      why: 'People keep notes for years and can no longer find them by scrolling; they need to search by the words they remember.',
      what_changes: 'Add a search index updated on save, and a search command with ranked results.',
      impact: 'Saving becomes slightly slower; the notes folder gains an index file.',
      notes: 'Chose an inverted index over scanning files because boards reach thousands of notes.',
    });
    say(`✓ proposal submitted; the change is now in phase ${proposal.phase}`);
    const spec = await claude.call('agentboard_create_spec', {
      change_id: CHANGE,
      overview: 'Users find notes by their words: an index updated on every save, and a search command ranking notes by relevance.',
      requirements: [
        { id: 'R1', title: 'Index on save', text: 'Saving a note MUST update the search index before the save returns.' },
        { id: 'R2', title: 'Ranked results', text: 'The search command SHALL return matching notes ordered by relevance, best first.' },
      ],
      scenarios: [{ name: 'Find a saved note', given: 'a note containing "quarterly plan" was saved', when: 'the user searches for "quarterly"', then: 'that note is the first result' }],
      notes: NO_NOTES,
    });
    say(`✓ spec submitted; phase ${spec.phase}`);
    const tasks = await claude.call('agentboard_create_tasks', {
      change_id: CHANGE,
      tasks: [
        { id: 'T1', title: 'Build the search index', priority: 'high', skills: ['storage'], requirements: ['R1'], files: [{ path: 'src/index.ts', action: 'create' }] },
        { id: 'T2', title: 'Rank search results', priority: 'high', skills: ['search'], requirements: ['R2'], files: [{ path: 'src/rank.ts', action: 'create' }] },
        { id: 'T3', title: 'Add the search command', depends: ['T1', 'T2'], requirements: ['R2'], files: [{ path: 'src/cli.ts', action: 'modify' }] },
      ],
      notes: 'Ranking and indexing are separate so two agents can work at once; the command needs both.',
    });
    say(`✓ tasks ${tasks.task_ids.join(', ')}; phase ${tasks.phase}`);

    io.out('\n— Two agents ask for work at the same moment: each gets its own task.\n');
    await codex.call('agentboard_register_agent', { name: 'Codex', role: 'Backend developer', skills: ['storage'] });
    await gemini.call('agentboard_register_agent', { name: 'Gemini', role: 'Search developer', skills: ['search'] });
    const [forCodex, forGemini] = await Promise.all([codex.call('agentboard_get_next_task', {}), gemini.call('agentboard_get_next_task', {})]);
    say(`✓ codex got ${forCodex.task.task_id} (${forCodex.task.title}); gemini got ${forGemini.task.task_id} (${forGemini.task.title})`);

    io.out('\n— Gemini is unsure and asks a person; the person answers from the command line.\n');
    const asked = await gemini.call('agentboard_request_input', { question: 'Should ties in ranking go to the newest note?', options: ['newest first', 'oldest first'], default_action: 'newest first', timeout_minutes: 30 });
    say(`✓ ${asked.input_id} is open until ${asked.expires_at}; if nobody answers, gemini goes on with "newest first"`);
    person(['inputs']);
    person(['answer', asked.input_id, 'newest first, and say so in the help']);
    const state = await gemini.call('agentboard_get_workflow_state', {});
    say(`✓ gemini is ${state.status} again; the answer: "${state.resolutions[0].resolution.value}"`);

    io.out('\n— Codex works on its task and finishes it; a third agent could not have touched it.\n');
    await codex.call('agentboard_report_progress', { task_id: forCodex.task.task_id, percent: 60, message: 'Index structure and save hook written; tests next.' });
    await codex.call('agentboard_add_note', { task_id: forCodex.task.task_id, text: 'Kept the index in one JSON file: simple, and fast enough below 100k notes.' });
    const stolen = await gemini.call('agentboard_complete_task', { task_id: forCodex.task.task_id });
    if (stolen.error) say('(refused: the task is held by codex)');
    await codex.call('agentboard_complete_task', { task_id: forCodex.task.task_id });

    io.out('\n— Gemini submits its work for a person to check; until then it gets nothing new.\n');
    await gemini.call('agentboard_submit_for_review', { summary: 'Ranking by term frequency; ties go to the newest note.', pr_url: 'https://example.com/notes/pull/7', tasks: [forGemini.task.task_id] });
    const waiting = await gemini.call('agentboard_get_next_task', {});
    say(`✓ ${waiting.status}: ${waiting.message}`);
    person(['approve', forGemini.task.task_id]);

    io.out('\n— The last task opens once both are done; a reviewer agent reviews the change.\n');
    const last = await codex.call('agentboard_get_next_task', {});
    say(`✓ codex got ${last.task.task_id} (${last.task.title}); its dependencies: ${last.context.dependencies.map((d: any) => `${d.task_id} ${d.status}`).join(', ')}`);
    await codex.call('agentboard_complete_task', { task_id: last.task.task_id, note: 'Wired the command to the index and the ranking; the scenario passes.' });
    const review = await critic.call('agentboard_create_review', {
      change_id: CHANGE,
      verdict: 'APPROVED',
      summary: 'Index, ranking and command match the spec; the acceptance scenario passes.',
      issues: [{ title: 'Help text', severity: 'Low', description: 'Mention that ties go to the newest note.' }],
      notes: 'Reviewed against the spec and the answer gemini got.',
    });
    say(`✓ review round ${review.round}: ${review.verdict}; the change is ${review.phase}`);

    io.out('\n— The person checks the board and archives the change.\n');
    person(['validate']);
    person(['log', '--limit', '6']);
    person(['status']);
    person(['archive', CHANGE]);
    io.out(`\nThe demo board ${options.keep ? `is kept in ${dir}` : 'was in a temporary folder and has been removed'}.\n`);
    return 0;
  } catch (err) {
    io.err(`demo failed: ${(err as Error).message}\n`);
    return 1;
  } finally {
    for (const a of agents) await a.close().catch(() => undefined);
    if (!options.keep) rmSync(dir, { recursive: true, force: true });
  }
}
