/**
 * `agentboard scripted-agent`: the demo's agent. A real program, started by `agentboard run` as a
 * custom agent: it reads the AGENTBOARD_* variables, connects to the board's MCP server named by
 * AGENTBOARD_MCP_CONFIG over stdio, and calls its tools, as Claude Code or Codex would. Where a
 * language model would think, it follows a script: its first spec is wrong (too short), and it
 * corrects it when the prompt brings back the board's findings; its first review asks for a fix.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const NOTES = 'No additional notes: a scripted demo agent followed its script.';

type Call = (tool: string, args: Record<string, unknown>) => Promise<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function plan(call: Call, phase: string, changeId: string, prompt: string): Promise<void> {
  if (phase === 'proposal') {
    await call('agentboard_submit_proposal', {
      change_id: changeId,
      title: 'Full-text search',
      why: 'People keep notes for years and can no longer find them by scrolling; they need to search by the words they remember.',
      what_changes: 'Add a search index updated on save, and a search command with ranked results.',
      impact: 'Saving becomes slightly slower; the notes folder gains an index file.',
      notes: 'Chose an inverted index over scanning files because boards reach thousands of notes.',
    });
  } else if (phase === 'spec') {
    // A first draft that the board refuses; the retry's prompt carries the findings.
    const retry = prompt.includes('What went wrong in your previous attempt');
    await call('agentboard_create_spec', {
      change_id: changeId,
      overview: retry ? 'Users find notes by their words: an index updated on every save, and a search command ranking notes by relevance.' : 'Search notes.',
      requirements: [
        { id: 'R1', title: 'Index on save', text: 'Saving a note MUST update the search index before the save returns.' },
        { id: 'R2', title: 'Ranked results', text: 'The search command SHALL return matching notes ordered by relevance, best first.' },
      ],
      scenarios: [{ name: 'Find a saved note', given: 'a note containing "quarterly plan" was saved', when: 'the user searches for "quarterly"', then: 'that note is the first result' }],
      notes: retry ? 'Expanded the overview, as the board asked.' : NOTES,
    });
  } else if (phase === 'tasks') {
    await call('agentboard_create_tasks', {
      change_id: changeId,
      tasks: [
        { id: 'T1', title: 'Build the search index', requirements: ['R1'], files: [{ path: 'src/index.js', action: 'create' }] },
        { id: 'T2', title: 'Rank search results', requirements: ['R2'], files: [{ path: 'src/rank.js', action: 'create' }] },
        { id: 'T3', title: 'Add the search command', depends: ['T1', 'T2'], requirements: ['R2'], files: [{ path: 'src/search.js', action: 'create' }] },
      ],
      notes: 'Indexing and ranking are apart so that two agents work at once; the command needs both.',
    });
  }
}

async function work(call: Call, taskId: string, workdir: string): Promise<void> {
  const task = (await call('agentboard_get_task', { task_id: taskId })).task;
  // A fix task names no file: the review's issue is in the search command.
  const file: string = task.files[0]?.path ?? 'src/search.js';
  await call('agentboard_report_progress', { task_id: taskId, percent: 30, message: `Reading what ${file} needs` });
  await pause(400);
  const path = join(workdir, file);
  mkdirSync(dirname(path), { recursive: true });
  const before = existsSync(path) ? readFileSync(path, 'utf8') : '';
  writeFileSync(path, `${before}// ${task.title}\nexport function ${task.id.toLowerCase()}(query = '') {\n  return query ? '${task.title}' : [];\n}\n`);
  await call('agentboard_report_progress', { task_id: taskId, percent: 80, message: `Wrote ${file}; checking it` });
  await pause(400);
  await call('agentboard_complete_task', { task_id: taskId, note: `Wrote ${file}.` });
  // Its turn ends here: the console shows the agent done, not still working.
  await call('agentboard_update_status', { status: 'completed', message: `Finished ${taskId}.` });
}

async function review(call: Call, changeId: string): Promise<void> {
  const change = await call('agentboard_get_change', { change_id: changeId });
  const reviewed = (change.document_files as { document: string }[]).some((d) => d.document === 'review');
  const rounds = reviewed ? ((await call('agentboard_get_document', { change_id: changeId, document: 'review', format: 'fields' })).content.rounds as unknown[]) : [];
  await call(
    'agentboard_create_review',
    rounds.length === 0
      ? {
          change_id: changeId,
          verdict: 'NEEDS_FIX',
          summary: 'Index and ranking match the spec, but an empty query is not handled.',
          issues: [
            { title: 'Empty query', severity: 'High', description: 'src/search.js throws on an empty query; return no results instead.' },
            { title: 'Help text', severity: 'Low', description: 'Mention that ties go to the newest note.' },
          ],
          notes: 'Reviewed against the spec and its scenario.',
        }
      : { change_id: changeId, verdict: 'APPROVED', summary: 'The fix handles the empty query; index, ranking and command match the spec.', issues: [], notes: 'Checked the fix task.' },
  );
}

export async function runScriptedAgent(): Promise<number> {
  const env = process.env;
  const server = JSON.parse(readFileSync(env.AGENTBOARD_MCP_CONFIG!, 'utf8')).mcpServers.agentboard as { command: string; args: string[] };
  const prompt = readFileSync(env.AGENTBOARD_PROMPT_FILE!, 'utf8');
  const client = new Client({ name: 'agentboard-scripted-agent', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: server.command, args: server.args, env: { PATH: env.PATH ?? '', HOME: env.HOME ?? '' }, stderr: 'ignore' }));
  const call: Call = async (tool, args) => {
    const r = (await client.callTool({ name: tool, arguments: args })) as { isError?: boolean; content: { text: string }[]; structuredContent?: Record<string, unknown> };
    process.stdout.write(`${tool}: ${r.isError ? r.content[0]!.text : 'ok'}\n`);
    if (r.isError) throw new Error(r.content[0]!.text);
    return r.structuredContent ?? {};
  };
  const phase = env.AGENTBOARD_PHASE!;
  const changeId = env.AGENTBOARD_CHANGE_ID!;
  try {
    if (phase === 'implementation') await work(call, env.AGENTBOARD_TASK_ID!, process.cwd());
    else if (phase === 'review') await review(call, changeId);
    else await plan(call, phase, changeId, prompt);
  } catch {
    // A refused call ends the turn, as it would a model's that gave up: the run reads the board.
  } finally {
    await client.close();
  }
  return 0;
}
