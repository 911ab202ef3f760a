/** The run command as people and scripts meet it: refusals, the --json stream, runs, status, the custom-agent contract. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, childEnv, cli, newBoard, ok, processState, read, SPEC_MD, unreapedCli, write } from '../helpers.js';
import { agentInvocations, alive, expectOneOfTwoRuns, FAKE_AGENT, fakeBoard, hangs, prompt, run, runIds, runRecord, startRun, until } from './helpers.js';

describe('agentboard run', () => {
  it('refuses without agents in config.yaml, with the lines to add', async () => {
    const dir = await newBoard();
    const r = await cli(dir, ['run', 'add-search', '--goal', 'Search']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: agentd/config.yaml does not say which agents run the change (agents: and run:).');
    expect(r.stderr).toContain('    agents:\n      claude: { adapter: claude }\n      codex:  { adapter: codex }\n    run:\n      planner: claude\n      reviewer: codex\n      workers: [claude, codex]');
    const json = await cli(dir, ['run', 'add-search', '--goal', 'Search', '--json']);
    expect(json.json.error.code).toBe('RUN_NOT_CONFIGURED');
    expect((await cli(dir, ['run', 'add-search', '--timeout', 'soon'])).code).toBe(2);
    expect(runIds(dir)).toEqual([]);
  });

  it('names the line of config.yaml that names an agent it does not have, like any config error', async () => {
    const dir = await newBoard();
    const config = 'agents:\n  fake: { command: ["./agent.sh"] }\nrun:\n  planner: ghost\n  reviewer: fake\n  workers: [fake]\n';
    writeFileSync(join(dir, 'agentd/config.yaml'), config);
    const planner = await cli(dir, ['run', 'add-search', '--goal', 'Search', '--json']);
    expect(planner.json.error).toMatchObject({ code: 'RUN_NOT_CONFIGURED', message: 'agentd/config.yaml:4: the planner "ghost" (run: planner:) is not an agent of agentd/config.yaml; its agents are fake.' });
    writeFileSync(join(dir, 'agentd/config.yaml'), config.replace('planner: ghost', 'planner: fake').replace('[fake]', '[fake, spook]'));
    const worker = await cli(dir, ['run', 'add-search', '--goal', 'Search', '--json']);
    expect(worker.json.error).toMatchObject({ code: 'RUN_NOT_CONFIGURED', message: 'agentd/config.yaml:6: the worker "spook" (run: workers:) is not an agent of agentd/config.yaml; its agents are fake.' });
    // Named by a flag, there is no line to name.
    const flag = await cli(dir, ['run', 'add-search', '--goal', 'Search', '--worker', 'fake', '--reviewer', 'ghost', '--json']);
    expect(flag.json.error.message).toBe('The reviewer "ghost" (--reviewer) is not an agent of agentd/config.yaml; its agents are fake.');
    expect(runIds(dir)).toEqual([]);
  });

  it('says git is not installed when it is not on PATH (the tasks then share the working tree)', async () => {
    const board = await fakeBoard();
    await changeWithTasks(board.dir, 'no-git', [{ title: 'One' }]);
    const bin = join(board.dir, '..', 'bin-without-git');
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, 'node'));
    const r = run(board.dir, ['no-git', '--until', 'implementation'], { PATH: bin });
    expect(r.code, r.stderr).toBe(0);
    expect(r.events.find((e) => e.type === 'notice').message).toBe('Tasks share the working tree: git is not installed (not found on PATH).');
  });

  it('refuses a run whose agent CLI is not installed, naming it and the roles, before it records a run', async () => {
    const board = await fakeBoard();
    await changeWithTasks(board.dir, 'no-cli', [{ title: 'One' }]);
    const config = join(board.dir, 'agentd/config.yaml');
    writeFileSync(config, readFileSync(config, 'utf8').replace('agents:\n', 'agents:\n  claude: { adapter: claude }\n  gone: { command: ["/nowhere/agent-cli", "{prompt_file}"] }\n  mine: { command: ["./scripts/agent.sh"] }\n'));
    const bin = join(board.dir, '..', 'bin-without-claude');
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, 'node'));
    const r = run(board.dir, ['no-cli', '--planner', 'claude', '--reviewer', 'gone', '--worker', 'mine'], { PATH: bin });
    expect(r.code).toBe(1);
    const error = JSON.parse(r.stdout.trim().split('\n').at(-1)!).error;
    expect(error).toMatchObject({
      code: 'RUN_REFUSED',
      message: `The run cannot start its agents: \`claude\` for claude (planner): not found on PATH (or not executable); \`/nowhere/agent-cli\` for gone (reviewer): no executable file there; \`./scripts/agent.sh\` for mine (worker): no executable file at ${join(realpathSync(board.dir), 'scripts/agent.sh')} (a relative command is looked for in the folder agents start in, the repository's root).`,
    });
    expect(error.next_step).toContain('--planner');
    expect(runIds(board.dir)).toEqual([]);
  });

  it("looks for a command's program with its {root} filled in, as the agent is started: found, the run works with it; not found, refused naming the file", async () => {
    const board = await fakeBoard();
    await changeWithTasks(board.dir, 'own-script', [{ title: 'One' }]);
    mkdirSync(join(board.dir, 'tools'));
    writeFileSync(join(board.dir, 'tools/agent.sh'), `#!/bin/sh\nexec "${process.execPath}" "${FAKE_AGENT}" "$@"\n`, { mode: 0o755 });
    const env = JSON.stringify({ FAKE_AGENT_SCENARIO: board.scenarioFile, FAKE_AGENT_STATE: board.state });
    const config = join(board.dir, 'agentd/config.yaml');
    writeFileSync(config, readFileSync(config, 'utf8').replace('agents:\n', `agents:\n  local: { command: ["{root}/tools/agent.sh", "{prompt_file}"], env: ${env} }\n  gone: { command: ["{root}/tools/gone.sh"] }\n`));

    const refused = run(board.dir, ['own-script', '--worker', 'gone']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout.trim().split('\n').at(-1)!).error.message).toBe(`The run cannot start its agents: \`{root}/tools/gone.sh\` for gone (worker): no executable file at ${join(realpathSync(board.dir), 'tools/gone.sh')}.`);
    expect(runIds(board.dir)).toEqual([]);

    const r = run(board.dir, ['own-script', '--worker', 'local', '--until', 'implementation']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect((await ok(board.dir, ['task', 'show', 'own-script/T1'])).task.status).toBe('done');
  });

  it('refuses a change with nothing to plan from (no proposal, no goal) before it records a run', async () => {
    const board = await fakeBoard();
    await ok(board.dir, ['new', 'blank-change', '--as', 'planner']);
    for (const change of ['brand-new', 'blank-change']) {
      const r = run(board.dir, [change]);
      expect(r.code, change).toBe(1);
      expect(JSON.parse(r.stdout.trim().split('\n').at(-1)!).error).toMatchObject({ code: 'RUN_REFUSED', message: `Change ${change} has no proposal yet, and the run has no goal to give the planner.` });
    }
    expect(runIds(board.dir)).toEqual([]);
    expect(agentInvocations(board)).toEqual([]);
  });

  it('refuses a run of an archived change before it records a run, saying what to do instead', async () => {
    const board = await fakeBoard({ scenario: { review: ['approved'] } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'One' }]);
    expect(run(board.dir, ['add-search']).code).toBe(0);
    await ok(board.dir, ['approve', 'add-search', 'review']);
    const archived = (await ok(board.dir, ['archive', 'add-search'])).archived_to;
    const before = runIds(board.dir);
    const invoked = agentInvocations(board).length;
    const r = run(board.dir, ['add-search']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout.trim()).error).toEqual({
      code: 'CHANGE_ARCHIVED',
      message: `Change add-search is archived (${archived}): archived changes do not change, so a run has nothing to do on it.`,
      next_step: 'Plan further work as a new change: agentboard run <new-change-id> --goal "<what it should do>".',
    });
    expect((await cli(board.dir, ['run', 'add-search'])).stderr).toContain('error: Change add-search is archived');
    expect(runIds(board.dir)).toEqual(before);
    expect(agentInvocations(board)).toHaveLength(invoked);
  });

  it('refuses a folder of worktrees that cannot be used, naming the path and what to do', async () => {
    // A file where the folder of worktrees, or a folder on the way to it, belongs: refused before a run is recorded.
    for (const setting of ['../wts', '../wts/inner']) {
      const board = await fakeBoard();
      await changeWithTasks(board.dir, 'add-search', [{ title: 'One' }]);
      const file = join(board.dir, '..', 'wts');
      writeFileSync(file, 'not a folder\n');
      writeFileSync(join(board.dir, 'agentd/config.yaml'), `${readFileSync(join(board.dir, 'agentd/config.yaml'), 'utf8')}  worktrees: ${setting}\n`);
      const r = run(board.dir, ['add-search']);
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout.trim()).error).toEqual({
        code: 'RUN_REFUSED',
        message: `The tasks' worktrees go in ${join(board.dir, setting)} (run: worktrees: in agentd/config.yaml), and it cannot be used: ${file} is a file, where a folder belongs.`,
        next_step: `Move ${file} aside, or set run: worktrees: in agentd/config.yaml to a folder outside the repository that you can write in; then run again (or run with --no-worktrees to share the working tree).`,
      });
      expect(runIds(board.dir)).toEqual([]);
      expect(readFileSync(file, 'utf8')).toBe('not a folder\n');
    }
    // A file where the change's folder of worktrees belongs, met as its first task starts: the task is released with the same words.
    const board = await fakeBoard();
    await changeWithTasks(board.dir, 'add-search', [{ title: 'One' }]);
    const folder = join(board.dir, '..', 'repo.agentboard-worktrees');
    mkdirSync(folder);
    writeFileSync(join(folder, 'add-search'), 'not a folder\n');
    const r = run(board.dir, ['add-search']);
    expect(r.code).toBe(1);
    const end = r.events.at(-1);
    expect(end.message).toBe(`Task add-search/T1 was released: The tasks' worktrees go in ${folder} (beside the repository, as run: worktrees: is not set), and it cannot be used: ${join(folder, 'add-search')} is a file, where a folder belongs.`);
    expect(end.next_steps[0]).toBe(`Move ${join(folder, 'add-search')} aside, or set run: worktrees: in agentd/config.yaml to a folder outside the repository that you can write in; then run again (or run with --no-worktrees to share the working tree).`);
    expect(agentInvocations(board)).toEqual([]);
    expect((await ok(board.dir, ['task', 'show', 'add-search/T1'])).task).toMatchObject({ status: 'todo', assignee: null });
  });

  it('refuses a dangling symbolic link as the folder of worktrees before the run starts, naming it and where it points', async () => {
    // Under a file, or nowhere.
    for (const under of ['a-file', 'no-such-folder']) {
      const board = await fakeBoard();
      await changeWithTasks(board.dir, 'add-search', [{ title: 'One' }]);
      if (under === 'a-file') writeFileSync(join(board.dir, '..', under), 'not a folder\n');
      const target = join(board.dir, '..', under, 'sub');
      const link = join(board.dir, '..', 'repo.agentboard-worktrees');
      symlinkSync(target, link);
      const r = run(board.dir, ['add-search']);
      expect(r.code).toBe(1);
      const why = under === 'a-file' ? 'which is no folder and cannot be made one' : 'which does not exist';
      expect(JSON.parse(r.stdout.trim()).error).toEqual({
        code: 'RUN_REFUSED',
        message: `The tasks' worktrees go in ${link} (beside the repository, as run: worktrees: is not set), and it cannot be used: ${link} is a symbolic link to ${target}, ${why}.`,
        next_step: `Move ${link} aside, or set run: worktrees: in agentd/config.yaml to a folder outside the repository that you can write in; then run again (or run with --no-worktrees to share the working tree).`,
      });
      expect(runIds(board.dir)).toEqual([]);
      expect(agentInvocations(board)).toEqual([]);
    }
  });

  it('keeps a run\'s planner and reviewer from moving tasks, lets the planner plan without claiming, and reads the role from the run\'s record when AGENTBOARD_ROLE says none', async () => {
    const board = await fakeBoard();
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }, { title: 'Query the index' }]);
    expect(run(board.dir, ['add-search', '--until', 'proposal']).code).toBe(0);
    const [runId] = runIds(board.dir);
    const as = (agent: string, role: string | undefined) => ({ AGENTBOARD_RUN_ID: runId!, AGENTBOARD_AGENT_ID: agent, AGENTBOARD_CHANGE_ID: 'add-search', AGENTBOARD_PHASE: 'tasks', AGENTBOARD_TASK_ID: '', ...(role === undefined ? {} : { AGENTBOARD_ROLE: role }) });
    const task = async (id: string) => (await ok(board.dir, ['task', 'show', id])).task;
    for (const [agent, role] of [['fake-planner', 'planner'], ['fake-planner', ''], ['fake-planner', 'all'], ['fake-reviewer', 'reviewer']] as const) {
      for (const status of ['in_progress', 'done']) {
        const r = await cli(board.dir, ['task', 'update', 'add-search/T1', '--status', status, '--json'], { env: as(agent, role) });
        expect(r.json.error?.code, `${agent} ${role} ${status}`).toBe('ROLE_REFUSED');
      }
    }
    const moved = await cli(board.dir, ['task', 'update', 'add-search/T1', '--status', 'in_progress', '--json'], { env: as('fake-planner', 'planner') });
    expect(moved.json.error.message).toBe(`fake-planner is a planner of agentboard run ${runId} (AGENTBOARD_ROLE), and a planner moves no task (\`agentboard task update --status\`): it claims and finishes none. Nothing was changed.`);
    expect(await task('add-search/T1')).toMatchObject({ status: 'todo', assignee: null });
    // A plan edit of a list another wrote claims nothing.
    expect((await cli(board.dir, ['task', 'update', 'add-search/T1', '--title', 'Index every title', '--json'], { env: as('fake-planner', 'planner') })).code).toBe(0);
    expect(await task('add-search/T1')).toMatchObject({ title: 'Index every title', status: 'todo', assignee: null });
    // An empty or `all` AGENTBOARD_ROLE is no way round the role the run's record gives.
    for (const role of ['', 'all', undefined]) {
      const next = await cli(board.dir, ['next', '--json'], { env: as('fake-planner', role) });
      expect(next.json.error?.code, String(role)).toBe('ROLE_REFUSED');
      expect(next.json.error.message).toContain('fake-planner is a planner of agentboard run');
      const add = await cli(board.dir, ['task', 'add', 'add-search', '--title', 'Made up', '--json'], { env: as('fake-w1', role) });
      expect(add.json.error?.code, String(role)).toBe('ROLE_REFUSED');
    }
    expect((await ok(board.dir, ['task', 'list'])).tasks.map((t: any) => [t.task_id, t.status, t.assignee])).toEqual([['add-search/T1', 'todo', null], ['add-search/T2', 'todo', null]]);
    // What each role has stays its own, and reads are anyone's.
    expect((await cli(board.dir, ['task', 'add', 'add-search', '--title', 'Show the results', '--json'], { env: as('fake-planner', '') })).code).toBe(0);
    expect((await cli(board.dir, ['task', 'list', '--json'], { env: as('fake-reviewer', 'all') })).code).toBe(0);
    expect((await cli(board.dir, ['task', 'progress', 'add-search/T2', '--percent', '10', '--message', 'Started.', '--json'], { env: { ...as('fake-w1', ''), AGENTBOARD_TASK_ID: 'add-search/T2' } })).code).toBe(0);
    // An agent the record does not name keeps the role it was given, said with the right article.
    const other = await cli(board.dir, ['task', 'add', 'add-search', '--title', 'Made up', '--json'], { env: as('someone', 'agent') });
    expect(other.json.error.message).toBe(`someone is an agent of agentboard run ${runId} (AGENTBOARD_ROLE), and \`agentboard task add\` is not an agent's command: nothing was changed.`);
    expect(other.json.error.next_step).toMatch(/^An agent changes the board with /);
  });

  it('refuses --merge on a working tree with changes not committed before any agent works, and starts no run', async () => {
    const board = await fakeBoard();
    await changeWithTasks(board.dir, 'dirty', [{ title: 'One' }]);
    writeFileSync(join(board.dir, 'README.md'), '# A project, edited and not committed\n');
    const r = run(board.dir, ['dirty', '--merge']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout.trim().split('\n').at(-1)!).error).toMatchObject({
      code: 'RUN_REFUSED',
      message: "--merge merges the tasks' branches into your current branch, and its working tree has changes not committed (README.md).",
      next_step: 'Commit or stash them (git stash), then run again; or run without --merge and merge the task branches yourself.',
    });
    expect(runIds(board.dir)).toEqual([]);
    expect(agentInvocations(board)).toEqual([]);
    // The board's own files, which the run writes, do not count.
    writeFileSync(join(board.dir, 'README.md'), '# A project\n');
    expect(run(board.dir, ['dirty', '--merge', '--until', 'implementation']).code).toBe(0);
    // The run is over, and so is the work of its worker: the board does not show it working still.
    const [runId] = runIds(board.dir);
    expect(await ok(board.dir, ['session', 'show', '--as', 'fake-w1'])).toMatchObject({ status: 'completed', message: `Run ${runId} ended (finished).` });
  });

  it('prints one JSON event per line with type, at and run_id, the last one run.finished; the same events are in the run\'s records', async () => {
    const board = await fakeBoard();
    const r = run(board.dir, ['add-search', '--goal', 'Search', '--until', 'proposal']);
    expect(r.stdout.trim().split('\n')).toHaveLength(r.events.length);
    const [runId] = runIds(board.dir);
    for (const e of r.events) {
      expect(e.run_id).toBe(runId);
      expect(e.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    expect(r.events[0]).toMatchObject({ type: 'run.started', change_id: 'add-search', person: 'human:tester', agents: { planner: 'fake-planner', reviewer: 'fake-reviewer', workers: ['fake-w1'] } });
    expect(r.events.find((e) => e.type === 'invocation.started')).toMatchObject({ agent_id: 'fake-planner', role: 'planner', phase: 'proposal', attempt: 1, invocation: 1, task_id: null });
    expect(r.events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'finished', exit_code: 0, invocations: 1 });
    const recorded = readFileSync(join(board.dir, 'agentd/.runtime/runs', runId!, 'events.jsonl'), 'utf8');
    expect(recorded).toBe(r.stdout);
  });

  it('is a person\'s command: refused inside an agent\'s environment, even with a person\'s key', async () => {
    const board = await fakeBoard({ git: false });
    for (const marker of <Record<string, string>[]>[{ CLAUDECODE: '1' }, { CODEX_THREAD_ID: 'parent-thread' }, { GEMINI_CLI: '1' }, { CURSOR_AGENT: '1' }, { AGENTBOARD_AGENT_ID: 'codex-w1' }]) {
      const r = run(board.dir, ['add-search', '--goal', 'Search'], marker);
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout).error.code).toBe('AGENT_ENVIRONMENT');
    }
    expect(agentInvocations(board)).toEqual([]);
  });

  it('starts a custom agent by the contract: placeholders, AGENTBOARD_* variables, cwd, no inherited agent markers, never the person\'s key', async () => {
    const board = await fakeBoard({ git: false });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    // A person's terminal inside Cursor carries CURSOR_TRACE_ID: the run goes on, and its agents do not get it.
    const r = run(board.dir, ['add-search', '--until', 'implementation'], { CURSOR_TRACE_ID: 'a-person-s-cursor-terminal' });
    expect(r.code).toBe(0);
    expect(r.events.find((e) => e.type === 'notice').message).toBe('Tasks share the working tree: the board is not in a git repository.');
    const [runId] = runIds(board.dir);
    const [worker] = agentInvocations(board);
    const runDir = join(board.dir, 'agentd/.runtime/runs', runId!);
    expect(worker.cwd).toBe(board.dir);
    expect(worker.argv).toEqual([join(runDir, '001.prompt.md')]);
    expect(worker.env).toEqual({
      AGENTBOARD_PROMPT_FILE: join(runDir, '001.prompt.md'),
      AGENTBOARD_MCP_CONFIG: join(runDir, '001.mcp.json'),
      AGENTBOARD_AGENT_ID: 'fake-w1',
      AGENTBOARD_ROLE: 'worker',
      AGENTBOARD_PHASE: 'implementation',
      AGENTBOARD_CHANGE_ID: 'add-search',
      AGENTBOARD_TASK_ID: 'add-search/T1',
      AGENTBOARD_ROOT: board.dir,
      AGENTBOARD_RUN_ID: runId,
      AGENTBOARD_WORKDIR: board.dir,
      AGENTBOARD_INVOCATION: '1',
    });
    const mcp = JSON.parse(readFileSync(join(runDir, '001.mcp.json'), 'utf8'));
    expect(mcp.mcpServers.agentboard.command).toBe(process.execPath);
    expect(mcp.mcpServers.agentboard.args.slice(1)).toEqual(['mcp', '--root', board.dir, '--as', 'fake-w1', '--profile', 'worker', '--run', runId, '--invocation', '1', '--task', 'add-search/T1']);
    // Shared working tree: the file is in the repository itself.
    expect(existsSync(join(board.dir, 'work/T1.txt'))).toBe(true);
  });

  it('started as a command, runs node without the certificates NODE_EXTRA_CA_CERTS names, and gives the variable back to its agents', async () => {
    const board = await fakeBoard({ git: false });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'Index the titles' }]);
    // A file that is not there: node says so on stderr as it starts whenever it reads the variable.
    const certs = join(board.dir, '..', 'no-such-bundle.pem');
    const env = childEnv({ NODE_EXTRA_CA_CERTS: certs });
    const warning = 'Ignoring extra certs from';
    expect(spawnSync(process.execPath, [BIN, '--version'], { env, encoding: 'utf8' }).stderr).toContain(warning);
    const r = spawnSync(BIN, ['run', 'add-search', '--until', 'implementation', '--json'], { cwd: board.dir, env, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toContain(warning);
    const [worker] = agentInvocations(board);
    expect(worker.env.NODE_EXTRA_CA_CERTS).toBe(certs);
    expect(Object.keys(worker.env).filter((k) => !k.startsWith('AGENTBOARD_') || k.includes('CERTS'))).toEqual(['NODE_EXTRA_CA_CERTS']);
    expect(existsSync(join(board.dir, 'work/T1.txt'))).toBe(true);
  });

  it('stops starting agents once the known cost reaches --max-cost', async () => {
    const board = await fakeBoard({ scenario: { spec: ['invalid'], usage: true } });
    const r = run(board.dir, ['add-search', '--goal', 'Search', '--max-cost', '0.02', '--max-attempts', '5']);
    expect(r.code).toBe(1);
    expect(r.events.filter((e) => e.type === 'invocation.started')).toHaveLength(2);
    expect(r.events.at(-1)).toMatchObject({ outcome: 'budget_exceeded', exit_code: 1, message: 'The run spent $0.0250, which reaches --max-cost $0.02; no new agent was started.', usage: { cost_usd: 0.025 } });
  });

  it('uses the project\'s own prompt from agentd/prompts/', async () => {
    const board = await fakeBoard();
    mkdirSync(join(board.dir, 'agentd/prompts'));
    writeFileSync(join(board.dir, 'agentd/prompts/proposal.md'), 'Our house style. Change {{change_id}} as {{agent_id}}: {{goal}}\n');
    run(board.dir, ['add-search', '--goal', 'Search', '--until', 'proposal']);
    expect(agentInvocations(board)[0].prompt).toBe('Our house style. Change add-search as fake-planner: Search\n');
  });

  it('lists runs and shows one, as text and as JSON', async () => {
    const board = await fakeBoard({ scenario: { usage: true } });
    run(board.dir, ['add-search', '--goal', 'Search', '--until', 'spec']);
    const [runId] = runIds(board.dir);
    const listed = (await ok(board.dir, ['runs'])).runs;
    expect(listed).toEqual([expect.objectContaining({ run_id: runId, change_id: 'add-search', phase: 'tasks', invocations: 2, outcome: 'finished', usage: { input_tokens: 700, output_tokens: 120, cached_input_tokens: 60, cost_usd: 0.025 } })]);
    const text = (await cli(board.dir, ['runs'])).stdout;
    expect(text).toMatch(new RegExp(`${runId}\\s+add-search\\s+tasks\\s+fake-planner, fake-reviewer, fake-w1\\s+2\\s+820\\s+\\$0\\.0250\\s+finished`));
    const shown = (await cli(board.dir, ['runs', 'show', runId!])).stdout;
    expect(shown).toMatch(/1\s+planner\s+fake-planner\s+proposal\s+-\s+1\s+0\s+[\d.]+ (ms|s)\s+410\s+\$0\.0125\s+agentd\/\.runtime\/runs\/\S+\/001\.transcript\.log/);
    expect(shown).toMatch(/2\s+planner\s+fake-planner\s+spec\s+-\s+1\s+0/);
    expect((await cli(board.dir, ['runs', 'show', '20990101-000000000-ffff', '--json'])).json.error.code).toBe('RUN_NOT_FOUND');
    const status = await ok(board.dir, ['status']);
    expect(status.costs).toEqual([{ change_id: 'add-search', runs: 1, input_tokens: 700, output_tokens: 120, cost_usd: 0.025 }]);
    expect(status.runs).toEqual([]);
    // a record written wrong (by an earlier version, or by hand) never breaks a read: counts are whole, a negative cost is none
    const record = join(board.dir, 'agentd/.runtime/runs', runId!, 'run.json');
    writeFileSync(record, JSON.stringify({ ...JSON.parse(readFileSync(record, 'utf8')), usage: { input_tokens: 10.5, output_tokens: 'many', cached_input_tokens: -3, cost_usd: -100 } }));
    expect((await ok(board.dir, ['status'])).costs).toEqual([{ change_id: 'add-search', runs: 1, input_tokens: 11, output_tokens: 0, cost_usd: null }]);
    expect((await ok(board.dir, ['runs'])).runs[0].usage).toEqual({ input_tokens: 11, output_tokens: 0, cached_input_tokens: 0, cost_usd: null });
  });

  it('shows a running run in status, refuses a second run of the change, and on SIGINT stops its agents and releases its claims', async () => {
    const board = await fakeBoard({ scenario: { implementation: { '*': ['hang'] } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'One' }, { title: 'Two' }]);
    const live = startRun(board.dir, ['add-search', '--workers', '2']);
    await until('both workers to hang', () => hangs(board).length === 2);
    const status = await ok(board.dir, ['status']);
    expect(status.runs).toEqual([expect.objectContaining({ change_id: 'add-search', state: 'running', phase: 'implementation', pid: live.child.pid })]);
    expect((await cli(board.dir, ['status'])).stdout).toMatch(/Runs\n {2}\S+ of add-search: running \(process \d+\), at implementation/);
    const second = await cli(board.dir, ['run', 'add-search', '--json']);
    expect(second.code).toBe(1);
    expect(second.json.error).toMatchObject({ code: 'RUN_REFUSED' });

    live.child.kill('SIGINT');
    expect(await live.done).toBe(130);
    expect(live.events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'interrupted', exit_code: 130 });
    expect(live.events.filter((e) => e.type === 'task.released').map((e) => e.task_id).sort()).toEqual(['add-search/T1', 'add-search/T2']);
    for (const h of hangs(board)) {
      expect(alive(h.agent)).toBe(false);
      expect(alive(h.child!)).toBe(false);
      expect(alive(h.escaped)).toBe(false);
    }
    for (const id of ['add-search/T1', 'add-search/T2']) expect((await ok(board.dir, ['task', 'show', id])).task).toMatchObject({ status: 'todo', assignee: null });
    expect(runRecord(board.dir, runIds(board.dir)[0]!)).toMatchObject({ outcome: 'interrupted', claims: [] });
    expect((await ok(board.dir, ['status'])).runs).toEqual([]);
  });

  it('stops as on Ctrl-C when its terminal closes (SIGHUP), and writing to a reader that is gone (EPIPE) does not break its stop: agents stopped, claims released, no stack trace', async () => {
    for (const end of ['SIGHUP', 'EPIPE'] as const) {
      const board = await fakeBoard({ scenario: { implementation: { '*': ['hang'] } } });
      await changeWithTasks(board.dir, 'add-search', [{ title: 'One' }]);
      const live = startRun(board.dir, ['add-search']);
      await until('the worker to hang', () => hangs(board).length === 1);
      if (end === 'SIGHUP') live.child.kill('SIGHUP');
      else {
        // The reader is gone; the run's next lines (as Ctrl-C stops it) meet a closed pipe.
        live.child.stdout!.destroy();
        live.child.kill('SIGINT');
      }
      expect(await live.done, end).toBe(130);
      expect(live.stderr()).not.toMatch(/EPIPE|at .*\.c?js:\d+/);
      for (const h of hangs(board)) expect(alive(h.agent), end).toBe(false);
      expect((await ok(board.dir, ['task', 'show', 'add-search/T1'])).task, end).toMatchObject({ status: 'todo', assignee: null });
      expect(runRecord(board.dir, runIds(board.dir)[0]!), end).toMatchObject({ outcome: 'interrupted', claims: [] });
    }
  });

  it('runs one of two runs of a change started at the same instant; the other is refused and starts no agent', async () => {
    const board = await fakeBoard();
    for (let i = 1; i <= 3; i++) await expectOneOfTwoRuns(board, `at-once-${i}`);
  });

  it('takes a killed run whose process is a zombie (its parent does not reap it) for dead: status says so, and the next run goes on', async () => {
    const board = await fakeBoard({ scenario: { spec: ['hang', 'valid'] } });
    const first = await unreapedCli(board.dir, ['run', 'add-search', '--goal', 'Let people search the board', '--json'], join(board.state, '..', 'first.jsonl'));
    try {
      await until('the planner to hang on the spec', () => hangs(board).length === 1);
      process.kill(first.pid, 'SIGKILL');
      await until('the run to be a zombie', () => processState(first.pid) === 'Z');
      expect((await ok(board.dir, ['status'])).runs).toEqual([expect.objectContaining({ state: 'died', pid: first.pid })]);
      const second = run(board.dir, ['add-search', '--until', 'tasks']);
      expect(second.code, second.stdout + second.stderr).toBe(0);
      expect(processState(first.pid)).toBe('Z');
      const [firstId, secondId] = runIds(board.dir);
      expect(runRecord(board.dir, firstId!)).toMatchObject({ outcome: 'interrupted', message: expect.stringContaining(`run ${secondId} stopped its agents`) });
      expect(alive(hangs(board)[0]!.agent)).toBe(false);
      expect(await ok(board.dir, ['show', 'add-search', 'spec'])).toMatchObject({ status: 'submitted' });
    } finally {
      first.parent.kill('SIGKILL');
    }
  });

  it('gives the reviewer its review key in its prompt and keeps it out of the run\'s records, where "***" stands for it', async () => {
    const board = await fakeBoard({ scenario: { review: ['approved'] } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'One' }]);
    expect(run(board.dir, ['add-search']).code).toBe(0);
    const [runId] = runIds(board.dir);
    const reviewer = agentInvocations(board).find((i) => i.env.AGENTBOARD_PHASE === 'review');
    const key = /Your review key for this run is `(abrk_[\w-]+)`/.exec(reviewer.prompt)![1]!;
    const n = Number(reviewer.env.AGENTBOARD_INVOCATION);
    const recorded = prompt(board.dir, runId!, n);
    expect(recorded).toBe(reviewer.prompt.replace(key, '***'));
    // Its own prompt file, given by the contract, is gone with its turn; nothing the run keeps holds the key.
    expect(reviewer.argv).toEqual([reviewer.env.AGENTBOARD_PROMPT_FILE]);
    expect(existsSync(reviewer.env.AGENTBOARD_PROMPT_FILE)).toBe(false);
    expect(recordsHolding(board.dir, key)).toEqual([]);
  });

  it('masks the review key the reviewer prints in its transcript, whole or split across two writes, and in all the run says', async () => {
    const board = await fakeBoard({ scenario: { review: ['approved'], print_key: true } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'One' }]);
    const r = run(board.dir, ['add-search']);
    expect(r.code, r.stderr).toBe(0);
    const [runId] = runIds(board.dir);
    const reviewer = agentInvocations(board).find((i) => i.env.AGENTBOARD_PHASE === 'review');
    const key = /abrk_[\w-]+/.exec(reviewer.prompt)![0];
    const text = transcript(board.dir, runId!, Number(reviewer.env.AGENTBOARD_INVOCATION)).toString('utf8');
    expect(text).toMatch(/^\*\*\*\nmy key is \*\*\*\n\n/);
    expect(text).toContain('agentboard_create_review → ok');
    expect(text.endsWith('bye ***\n')).toBe(true);
    expect(recordsHolding(board.dir, key)).toEqual([]);
    const shown = await cli(board.dir, ['runs', 'show', runId!]);
    expect(r.stdout + r.stderr + shown.stdout + JSON.stringify(await ok(board.dir, ['runs', 'show', runId!]))).not.toContain(key);
  });

  it('masks the review key in a capped transcript: in the head, across its end, in the part left out and in the tail, counted as recorded', async () => {
    const MiB = 1024 * 1024;
    // The key starts 12 bytes before the end of the head, and the reviewer writes it in two parts, 20 characters first.
    const board = await fakeBoard({ scenario: { review: ['approved'], print_key: { pad: MiB - 12, split: 20, more: 1_500_000 } } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'One' }]);
    expect(run(board.dir, ['add-search']).code).toBe(0);
    const [runId] = runIds(board.dir);
    const reviewer = agentInvocations(board).find((i) => i.env.AGENTBOARD_PHASE === 'review');
    const key = /abrk_[\w-]+/.exec(reviewer.prompt)![0];
    const file = transcript(board.dir, runId!, Number(reviewer.env.AGENTBOARD_INVOCATION));
    const text = file.toString('utf8');
    // Not the key, nor either half of what makes it secret.
    const secret = key.slice('abrk_'.length);
    for (const part of [key, secret.slice(0, secret.length / 2), secret.slice(secret.length / 2)]) expect(text).not.toContain(part);
    expect(file.subarray(MiB - 13, MiB - 8).toString('utf8')).toBe('.***\n');
    expect(text.endsWith('bye ***\n')).toBe(true);
    const note = /\n\[agentboard: (\d+) bytes of output left out here; this transcript keeps the first (\d+) and the last (\d+) of (\d+) bytes\]\n/.exec(text)!;
    const [dropped, first, last, total] = note.slice(1).map(Number) as [number, number, number, number];
    expect(first + dropped + last).toBe(total);
    expect(file.length).toBe(first + note[0].length + last);
    expect(recordsHolding(board.dir, key)).toEqual([]);
  });

  it('refuses the review key of a run killed during review at once, and revokes it, with its log entry, when the next run cleans up after it', async () => {
    const board = await fakeBoard({ scenario: { review: ['hang', 'approved'] } });
    await changeWithTasks(board.dir, 'add-search', [{ title: 'One' }]);
    const first = startRun(board.dir, ['add-search']);
    await until('the reviewer to hang', () => hangs(board).length === 1);
    const [firstId] = runIds(board.dir);
    const reviewer = agentInvocations(board).find((i) => i.env.AGENTBOARD_PHASE === 'review');
    const key = /abrk_[\w-]+/.exec(reviewer.prompt)![0];
    expect(prompt(board.dir, firstId!, Number(reviewer.env.AGENTBOARD_INVOCATION))).toContain('Your review key for this run is `***`');
    first.child.kill('SIGKILL');
    await first.done;
    // Refused as soon as its run is gone, before any run cleans up after it; nothing is written.
    const spec = read(board.dir, 'agentd/changes/add-search/spec.md');
    const early = await cli(board.dir, ['correct', 'add-search', 'spec', '--as', 'mallory', '--review-key', key, '--from', write(board.dir, 'fixed.md', SPEC_MD), '--notes', 'x', '--json']);
    expect(early.json.error).toMatchObject({ code: 'REVIEW_KEY_INVALID', message: `This review key was made for run ${firstId}, which is over; it is no longer valid.` });
    expect(read(board.dir, 'agentd/changes/add-search/spec.md')).toBe(spec);

    const second = run(board.dir, ['add-search']);
    expect(second.code, second.stderr).toBe(0);
    const name = `fake-reviewer-run-${firstId}`;
    expect(second.events).toContainEqual(expect.objectContaining({ type: 'notice', message: `Revoked the review key of run ${firstId} (reviewer ${name}): its process is gone.` }));
    const log = read(board.dir, 'agentd/.runtime/activity.jsonl').trim().split('\n').map((l) => JSON.parse(l));
    expect(log.filter((e) => e.action === 'reviewer.remove' && e.target === name)).toEqual([expect.objectContaining({ actor: 'human:tester' })]);
    expect(JSON.parse(read(board.dir, 'agentd/.runtime/state.json')).reviewers).toEqual({});
    expect(runRecord(board.dir, firstId!).message).toContain('and revoked its review key');
    const correct = await cli(board.dir, ['correct', 'add-search', 'spec', '--as', 'mallory', '--review-key', key, '--from', write(board.dir, 'fixed.md', SPEC_MD), '--notes', 'x', '--json']);
    expect(correct.json.error.code).toBe('REVIEW_KEY_INVALID');
    expect(recordsHolding(board.dir, key)).toEqual([]);
  });

  it('gives claude, codex and gemini a prompt over 128 KiB on stdin, and refuses a custom agent\'s {prompt} that long before starting it', async () => {
    const board = await fakeBoard();
    const bin = join(board.dir, '..', 'bin');
    mkdirSync(bin);
    // Each CLI records what it was given, then does what the fake agent does through the MCP server the run gave it.
    for (const name of ['claude', 'codex', 'gemini']) {
      const script = `#!${process.execPath}\nconst fs = require('node:fs');\nfs.appendFileSync(${JSON.stringify(join(board.state, '..', 'cli.jsonl'))}, JSON.stringify({ cli: ${JSON.stringify(name)}, argv: process.argv.slice(2), stdin: fs.readFileSync(0, 'utf8') }) + '\\n');\nimport(${JSON.stringify(FAKE_AGENT)});\n`;
      writeFileSync(join(bin, name), script, { mode: 0o755 });
    }
    const config = join(board.dir, 'agentd/config.yaml');
    const env = JSON.stringify({ FAKE_AGENT_SCENARIO: board.scenarioFile, FAKE_AGENT_STATE: board.state });
    writeFileSync(config, readFileSync(config, 'utf8').replace('agents:\n', `agents:\n  claude: { adapter: claude, env: ${env} }\n  codex: { adapter: codex, env: ${env} }\n  gemini: { adapter: gemini, env: ${env} }\n  inline: { command: ["${process.execPath}", "${FAKE_AGENT}", "{prompt}"], env: ${env} }\n`));
    const goal = join(board.dir, '..', 'goal.txt');
    writeFileSync(goal, 'Let people search the board by the words of a task. '.repeat(3000));
    const PATH = `${bin}:${process.env.PATH}`;
    for (const name of ['claude', 'codex', 'gemini']) {
      const r = run(board.dir, [`with-${name}`, '--goal-file', goal, '--until', 'proposal', '--planner', name], { PATH });
      expect(r.code, `${name}: ${r.stdout}`).toBe(0);
      expect(r.events.find((e) => e.type === 'phase.validated')).toMatchObject({ document: 'proposal', agent_id: `${name}-planner` });
    }
    const received = readFileSync(join(board.state, '..', 'cli.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(received.map((c) => c.cli)).toEqual(['claude', 'codex', 'gemini']);
    for (const [i, c] of received.entries()) {
      const prompt = readFileSync(join(board.dir, 'agentd/.runtime/runs', runIds(board.dir)[i]!, '001.prompt.md'), 'utf8');
      expect(Buffer.byteLength(prompt)).toBeGreaterThan(128 * 1024);
      expect(c.stdin).toBe(prompt);
      expect(c.argv.some((a: string) => a.includes('Let people search'))).toBe(false);
    }
    expect(received[0].argv.slice(0, 2)).toEqual(['-p', '--output-format']);
    expect(received[1].argv.at(-1)).toBe('-');
    expect(received[2].argv.slice(0, 2)).toEqual(['-p', 'Do what the instructions above say.']);

    // A custom agent given the prompt as an argument: not started, with what to do instead.
    const r = run(board.dir, ['inline', '--goal-file', goal, '--until', 'proposal', '--planner', 'inline']);
    expect(r.code).toBe(1);
    expect(r.events.find((e) => e.type === 'invocation.finished').failure).toMatch(/^could not start `.*node`: its argument 2 is \d+ KiB, and Linux takes at most 128 KiB in one argument$/);
    expect(r.events.at(-1)).toMatchObject({ outcome: 'failed', next_steps: ['Give agents: inline in agentd/config.yaml its prompt by file ({prompt_file}, or the file AGENTBOARD_PROMPT_FILE names) instead of {prompt} in its arguments, then: agentboard run inline'] });
    expect(r.events.filter((e) => e.type === 'invocation.started')).toHaveLength(1);
  });
});

/** The transcript of a run's invocation n, as bytes. */
function transcript(dir: string, runId: string, n: number): Buffer {
  return readFileSync(join(dir, 'agentd/.runtime/runs', runId, `${String(n).padStart(3, '0')}.transcript.log`));
}

/** The files of the board's run records that hold `secret`. */
function recordsHolding(dir: string, secret: string): string[] {
  const runs = join(dir, 'agentd/.runtime/runs');
  return readdirSync(runs, { recursive: true, encoding: 'utf8' }).filter((f) => {
    try {
      return readFileSync(join(runs, f), 'utf8').includes(secret);
    } catch {
      return false; // a folder
    }
  });
}
