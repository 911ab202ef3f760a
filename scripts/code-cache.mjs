// Makes the code caches of the bundles (dist/cli.cjs.cache, dist/mcp.cjs.cache): compiles a bundle,
// runs what its commands run so that their code is compiled too, and saves what V8 compiled. For
// dist/mcp.cjs that is an MCP session: an agent's calls through `agentboard mcp`, served in this
// process. A cache made by another Node version is simply not used (the CLI then compiles as usual).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { compile } from '../bin/load.mjs';

const quiet = { out: () => {}, err: () => {} };

/**
 * What people and agents run most, on a board the run fills: a change planned, and its tasks
 * claimed and worked, so that the code that reads, checks and writes documents and claims tasks is
 * in the cache too, not only what an empty board runs.
 */
function commands(dir) {
  const planner = ['--as', 'build-planner'];
  const worker = ['--as', 'build'];
  const spec = { overview: 'A change the build makes to run the commands once, before it saves the code cache.', requirements: [{ id: 'R1', title: 'Work', text: 'The system MUST do the work.' }], scenarios: [{ name: 'Work is done', when: 'an agent works', then: 'the work is done' }], notes: 'Made by the build.' };
  const tasks = Array.from({ length: 4 }, (_, t) => ({ title: `Task ${t + 1}`, description: 'Do the work.', depends: t === 3 ? ['T3'] : [], files: [{ path: `src/t${t + 1}.ts`, action: 'create' }] }));
  writeFileSync(join(dir, 'spec.json'), JSON.stringify(spec));
  writeFileSync(join(dir, 'tasks.json'), JSON.stringify({ tasks, notes: 'Made by the build.' }));
  return [
    ['init', '--as', 'human:build'],
    ['status'],
    ['next', ...worker],
    ['propose', 'build-warm-up', ...planner, '--title', 'Warm up', '--why', 'The code cache holds what commands run, compiled once at build time.', '--what-changes', 'Nothing.', '--impact', 'None.', '--notes', 'Made by the build.'],
    ['spec', 'build-warm-up', ...planner, '--input', join(dir, 'spec.json')],
    ['tasks', 'build-warm-up', ...planner, '--input', join(dir, 'tasks.json')],
    ['next', ...worker],
    ['task', 'progress', 'build-warm-up/T1', '--percent', '50', '--message', 'Half way.', ...worker],
    ['task', 'note', 'build-warm-up/T1', 'A note.', ...worker],
    ['task', 'done', 'build-warm-up/T1', ...worker],
    ['next', ...worker],
    ['status'],
    ['list'],
    ['validate', '--all'],
    ['show', 'build-warm-up'],
    ['show', 'build-warm-up', 'spec'],
    ['task', 'list'],
    ['task', 'show', 'build-warm-up/T2'],
    ['log'],
    ['--help'],
  ];
}

for (const bundle of ['cli', 'mcp']) {
  const { script, module } = compile({ produce: true, bundle });
  const { main } = module.exports;
  const dir = mkdtempSync(join(tmpdir(), 'agentboard-cache-'));
  try {
    for (const args of commands(dir)) {
      const code = await main([...args, '--root', dir], quiet);
      // A command refused here leaves its code out of the cache: the build says so.
      if (code !== 0) process.stderr.write(`code cache: agentboard ${args.join(' ')} exited ${code}\n`);
    }
    if (bundle === 'mcp') await mcpSession(main, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const data = script.createCachedData();
  writeFileSync(new URL(`../dist/${bundle}.cjs.cache`, import.meta.url), data);
  console.log(`dist/${bundle}.cjs.cache  ${(data.length / 1024).toFixed(0)} KiB`);
}

/** A planner and a worker as agents use agentboard, through `agentboard mcp` on stdin and stdout made for it. */
async function mcpSession(main, dir) {
  const input = new PassThrough();
  const output = new PassThrough();
  const stdin = Object.getOwnPropertyDescriptor(process, 'stdin');
  const stdout = Object.getOwnPropertyDescriptor(process, 'stdout');
  Object.defineProperty(process, 'stdin', { configurable: true, get: () => input });
  Object.defineProperty(process, 'stdout', { configurable: true, get: () => output });
  const waiting = new Map();
  let buffered = '';
  output.on('data', (chunk) => {
    buffered += chunk;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const message = JSON.parse(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
      waiting.get(message.id)?.(message);
    }
  });
  let lastId = 0;
  const send = (message) => input.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  // A call left unanswered fails the build rather than hang it.
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = ++lastId;
      const timer = setTimeout(() => reject(new Error(`the build's MCP session got no answer to ${method} ${params?.name ?? ''}`)), 60_000);
      waiting.set(id, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
      send({ id, method, params });
    });
  // With AGENTBOARD_BUILD_DEBUG=1 refusals are shown: a call refused here leaves its code out of the cache.
  const call = async (name, args) => {
    const { result, error } = await request('tools/call', { name, arguments: args });
    if (process.env.AGENTBOARD_BUILD_DEBUG === '1' && (error || result.isError)) process.stderr.write(`${name}: ${error?.message ?? result.content[0].text}\n`);
    return result?.structuredContent ?? {};
  };
  try {
    const served = main(['mcp', '--root', dir, '--profile', 'all'], quiet);
    await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'agentboard-build', version: '1' } });
    send({ method: 'notifications/initialized' });
    await request('tools/list', {});
    const planner = 'build-planner';
    const change_id = 'warm-up';
    await call('agentboard_register_agent', { agent_id: planner, name: 'Build planner', role: 'planner' });
    const proposal = { why: 'The code cache holds what serving tools runs, compiled once at build time.', what_changes: 'Nothing.', impact: 'None.', notes: 'Made by the build.' };
    await call('agentboard_create_change', { agent_id: planner, change_id, title: 'Warm up' });
    await call('agentboard_submit_proposal', { agent_id: planner, change_id, ...proposal });
    await call('agentboard_create_spec', { agent_id: planner, change_id, overview: 'A change the build makes to run the tools of the server once, before it saves the code cache.', requirements: [{ id: 'R1', title: 'Work', text: 'The system MUST do the work.' }], scenarios: [{ name: 'Work is done', when: 'an agent works', then: 'the work is done' }], notes: 'Made by the build.' });
    const tasks = Array.from({ length: 6 }, (_, t) => ({ id: `T${t + 1}`, title: `Task ${t + 1}`, description: 'Do the work.', priority: 'medium', depends: t === 5 ? ['T5'] : [], skills: ['typescript'], files: [{ path: `src/t${t + 1}.ts`, action: 'create' }] }));
    await call('agentboard_create_tasks', { agent_id: planner, change_id, tasks, notes: 'Made by the build.' });
    await call('agentboard_add_task', { agent_id: planner, change_id, id: 'T7', title: 'Task 7', description: 'Do more work.', priority: 'low' });
    for (const name of ['agentboard_list_changes', 'agentboard_get_project_status', 'agentboard_list_agents', 'agentboard_list_conflicts', 'agentboard_list_inputs']) await call(name, {});
    await call('agentboard_validate_change', { change_id });
    await call('agentboard_list_documents', { change_id });
    await call('agentboard_get_change', { change_id });
    await call('agentboard_get_document', { change_id, document: 'tasks', format: 'fields' });
    await call('agentboard_get_document', { change_id, document: 'spec' });
    await call('agentboard_list_tasks', { change_id, limit: 3 });
    for (const agent_id of ['build-w1', 'build-w2']) {
      await call('agentboard_register_agent', { agent_id, name: agent_id, role: 'worker' });
      for (let round = 0; round < 3; round++) {
        const next = await call('agentboard_get_next_task', { agent_id });
        const task_id = next.task?.task_id;
        if (!task_id) break;
        await call('agentboard_report_progress', { agent_id, task_id, percent: 50, message: 'Half way.' });
        await call('agentboard_get_task', { agent_id, task_id });
        await call('agentboard_add_note', { agent_id, task_id, text: 'A note.' });
        if (round === 1) {
          await call('agentboard_report_blocker', { agent_id, task_id, reason: 'Waiting for an answer.' });
          await call('agentboard_clear_blocker', { agent_id, task_id, note: 'Answered.' });
          await call('agentboard_request_input', { agent_id, question: 'Which name?', default_action: 'Keep the name.', options: ['Keep', 'Rename'] });
        }
        await call('agentboard_complete_task', { agent_id, task_id, note: 'Done.' });
      }
      await call('agentboard_get_workflow_state', { agent_id });
      await call('agentboard_get_session_history', { agent_id });
      await call('agentboard_get_agent_status', { agent_id });
      await call('agentboard_update_status', { agent_id, status: 'completed', message: 'Finished.' });
    }
    await call('agentboard_get_activity_log', { change_id });
    // Refusals too: an unknown task, and arguments of the wrong shape.
    await call('agentboard_get_task', { agent_id: 'build-w1', task_id: `${change_id}/T99` });
    await call('agentboard_complete_task', { agent_id: 'build-w1', task_id: 7 });
    await request('tools/call', { name: 'agentboard_list_tasks', arguments: 'not an object' });
    input.end();
    await served;
  } finally {
    Object.defineProperty(process, 'stdin', stdin);
    Object.defineProperty(process, 'stdout', stdout);
  }
}
