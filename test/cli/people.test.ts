/**
 * People's decisions stay with people: a person's command needs a person present (a terminal, or a
 * person's key) and is refused in an agent's environment even with a key; --as human:x alone makes
 * nobody a person.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, childEnv, cli, cliProcess, newBoard, NODE_ARGS, ok, snapshot, TEST_PERSON_KEY } from '../helpers.js';

/** A board with something for every person's command to decide on. */
async function boardWithDecisions(): Promise<string> {
  const dir = await newBoard();
  await changeWithTasks(dir, 'decide', [{ title: 'One' }, { title: 'Two' }]);
  await ok(dir, ['next', '--as', 'codex']);
  await ok(dir, ['next', '--as', 'gemini']);
  await ok(dir, ['session', 'submit', '--as', 'gemini', '--summary', 'Done.', '--task', 'decide/T2']);
  await ok(dir, ['ask', '--as', 'codex', '--question', 'Which way?', '--default-action', 'Left']);
  return dir;
}

const PERSONS_COMMANDS: string[][] = [
  ['approve', 'decide', 'spec'],
  ['reject', 'decide', 'proposal', '--feedback', 'No.'],
  ['release', 'decide/T1'],
  ['approve', 'decide/T2'],
  ['reject', 'decide/T2', '--feedback', 'No.'],
  ['answer', 'input-1', 'Right'],
  ['expire'],
  ['review-request', 'decide', 'spec'],
  ['reviewer', 'add', 'rev'],
  ['archive', 'decide'],
  ['conflicts', 'clear'],
  ['person', 'key'],
];

const MARKERS: Record<string, string>[] = [{ AGENTBOARD_AGENT_ID: 'codex-w1' }, { CLAUDECODE: '1' }, { CODEX_CI: '1' }, { CODEX_THREAD_ID: 't-1' }, { GEMINI_CLI: '1' }, { CURSOR_AGENT: '1' }, { CURSOR_EXTENSION_HOST_ROLE: 'agent-exec' }];

describe("a person's command", () => {
  it('is refused in every agent environment, with or without a key, and changes nothing', async () => {
    const dir = await boardWithDecisions();
    const before = snapshot(dir);
    for (const args of PERSONS_COMMANDS) {
      for (const marker of MARKERS) {
        for (const key of <Record<string, string>[]>[{}, { AGENTBOARD_PERSON_KEY: '' }]) {
          const r = await cli(dir, [...args, '--json'], { env: { ...marker, ...key }, interactive: true });
          expect(r.json.error?.code, `${args.join(' ')} with ${JSON.stringify(marker)}`).toBe('AGENT_ENVIRONMENT');
          expect(r.json.error.message).toContain(Object.keys(marker)[0]);
        }
      }
    }
    expect(snapshot(dir)).toEqual(before);
  });

  it('needs a person present: no terminal and no key is refused; a key acts as its person; --as human:x alone is nobody', async () => {
    const dir = await boardWithDecisions();
    const before = snapshot(dir);
    for (const args of PERSONS_COMMANDS) {
      const r = await cli(dir, [...args, '--json'], { env: { AGENTBOARD_PERSON_KEY: '' } });
      expect(r.json.error?.code, args.join(' ')).toBe('PERSON_REQUIRED');
      expect(r.json.error.next_step).toContain(args[0] === 'person' ? 'at a terminal' : 'AGENTBOARD_PERSON_KEY');
      const mallory = await cli(dir, [...args, '--as', 'human:mallory', '--json'], { env: { AGENTBOARD_PERSON_KEY: '' } });
      expect(mallory.json.error?.code).toBe('PERSON_REQUIRED');
      const wrong = await cli(dir, [...args, '--json'], { env: { AGENTBOARD_PERSON_KEY: 'abpk_not-a-key-of-this-board' } });
      expect(wrong.json.error?.code).toBe(args[0] === 'person' ? 'PERSON_REQUIRED' : 'PERSON_KEY_INVALID');
    }
    // Bad usage exits 2 before the person is asked for, with or without a key of this board: a person's
    // command, and an agent's command given a person that is no person (--as "human:").
    const usage = [['approve', 'decide', 'nodoc'], ['reject', 'decide', 'spec'], ['archive', 'BAD_ID'], ['answer', 'bogus', 'yes'], ['reviewer', 'add', 'Bad Name'], ['task', 'note', 'decide/T1', 'A note.', '--as', 'human:'], ['approve', 'decide/T2', '--as', 'human:']];
    for (const args of usage) {
      for (const key of ['', 'abpk_not-a-key-of-this-board']) {
        const r = await cli(dir, [...args, '--json'], { env: { AGENTBOARD_PERSON_KEY: key } });
        expect([r.code, r.json.error?.code], `${args.join(' ')} with key "${key}"`).toEqual([2, 'INVALID_INPUT']);
      }
    }
    expect(snapshot(dir)).toEqual(before);
    // the tests' key (in every run's environment) is human:tester's
    const approved = await ok(dir, ['approve', 'decide/T2']);
    expect(approved.task.status).toBe('done');
    expect((await ok(dir, ['log', '--limit', '1'])).entries[0]).toMatchObject({ actor: 'human:tester', action: 'task.approve' });
    const mismatch = await cli(dir, ['release', 'decide/T1', '--as', 'human:mallory', '--json']);
    expect(mismatch.json.error.code).toBe('PERSON_MISMATCH');
  });

  it("in git, a key is taken only once its person's entry in agentd/people.yaml is committed", async () => {
    const dir = await boardWithDecisions();
    const git = (...args: string[]) => spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, encoding: 'utf8' });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'board');
    // an entry added to the working file, not committed: its key is not taken, and nothing changes
    const key = 'abpk_a-key-someone-added-by-hand';
    const people = join(dir, 'agentd/people.yaml');
    writeFileSync(people, `${readFileSync(people, 'utf8')}  - name: human:mallory\n    key_sha256: ${createHash('sha256').update(key).digest('hex')}\n    added: 2026-11-23T00:00:00.000Z\n`);
    const before = snapshot(dir);
    const refused = await cli(dir, ['approve', 'decide/T2', '--json'], { env: { AGENTBOARD_PERSON_KEY: key } });
    expect(refused.code).not.toBe(0);
    expect(refused.json.error.code).toBe('PERSON_KEY_INVALID');
    expect(refused.json.error.message).toContain("human:mallory's in agentd/people.yaml, but the commit checked out does not have that entry");
    expect(refused.json.error.next_step).toContain('commit agentd/people.yaml');
    expect(snapshot(dir)).toEqual(before);
    // the committed entries still work beside it
    expect((await ok(dir, ['release', 'decide/T1'])).released_from).toBe('codex');
    // git made to fail (a GIT_DIR that is not the repository) takes no key at all
    const unchanged = snapshot(dir);
    const blind = cliProcess(dir, ['approve', 'decide/T2', '--json'], { env: { AGENTBOARD_PERSON_KEY: key, GIT_DIR: join(dir, 'no-such-git-dir') } });
    expect(blind.json.error.code).toBe('PERSON_KEY_INVALID');
    expect(blind.json.error.message).toContain('git could not read the repository');
    expect(snapshot(dir)).toEqual(unchanged);
    // a board git ignores, people.yaml never committed: the step given adds the file by force, and works as written
    writeFileSync(join(dir, '.gitignore'), 'agentd/\n');
    git('rm', '-q', '--cached', 'agentd/people.yaml');
    git('commit', '-qm', 'people.yaml left out');
    const ignored = await cli(dir, ['approve', 'decide/T2', '--json'], { env: { AGENTBOARD_PERSON_KEY: key } });
    expect(ignored.json.error.code).toBe('PERSON_KEY_INVALID');
    const step = /`(git add -f agentd\/people\.yaml) && git commit`/.exec(ignored.json.error.next_step);
    expect(step, ignored.json.error.next_step).not.toBeNull();
    expect(git(...step![1]!.split(' ').slice(1)).status).toBe(0);
    rmSync(join(dir, '.gitignore'));
    // committed, the entry is taken
    git('commit', '-qam', 'add mallory');
    await ok(dir, ['approve', 'decide/T2'], { env: { AGENTBOARD_PERSON_KEY: key } });
    expect((await ok(dir, ['log', '--limit', '1'])).entries[0]).toMatchObject({ actor: 'human:mallory', action: 'task.approve' });
  });

  it('at a terminal, acts as the git user.name of the board\'s repository (not the current folder\'s), or as --as human:<name>', async () => {
    const dir = await boardWithDecisions();
    spawnSync('git', ['init', '-q'], { cwd: dir });
    spawnSync('git', ['config', 'user.name', 'Dana'], { cwd: dir });
    const elsewhere = await newBoard();
    spawnSync('git', ['init', '-q'], { cwd: elsewhere });
    spawnSync('git', ['config', 'user.name', 'Somebody Else'], { cwd: elsewhere });
    const r = await cli(elsewhere, ['answer', 'input-1', 'Right', '--root', dir, '--json'], { env: { AGENTBOARD_PERSON_KEY: '' }, interactive: true });
    expect(r.json.data.request.resolution).toMatchObject({ type: 'human', by: 'human:Dana' });
    const named = await cli(dir, ['release', 'decide/T1', '--as', 'human:Dana Smith', '--json'], { env: { AGENTBOARD_PERSON_KEY: '' }, interactive: true });
    expect(named.json.data.released_from).toBe('codex');
    expect((await ok(dir, ['log', '--limit', '1'])).entries[0].actor).toBe('human:Dana Smith');
    const agent = await cli(dir, ['approve', 'decide', 'spec', '--as', 'codex', '--json'], { env: { AGENTBOARD_PERSON_KEY: '' }, interactive: true });
    expect(agent.json.error.code).toBe('HUMAN_ONLY');
  });

  it('knows a real terminal: standard input a terminal is a person present', () => {
    const dir = `/tmp/agentboard-people-${process.pid}`;
    spawnSync('mkdir', ['-p', dir]);
    const env = { ...childEnv(), AGENTBOARD_PERSON_KEY: '' };
    const command = (args: string) => `${process.execPath} ${NODE_ARGS.join(' ')} ${BIN} ${args}`;
    spawnSync('sh', ['-c', command('init --json')], { cwd: dir, env });
    // In a pseudo-terminal made by script(1): a person.
    const inTerminal = spawnSync('script', ['-qec', command('person key --json'), '/dev/null'], { cwd: dir, env, encoding: 'utf8' });
    const made = JSON.parse(inTerminal.stdout.slice(inTerminal.stdout.indexOf('{')));
    expect(made.data).toMatchObject({ name: 'human:tester', file: 'agentd/people.yaml', replaced: false });
    expect(made.data.person_key).toMatch(/^abpk_/);
    // Not a terminal: the same command is refused; with the new key a script acts as human:tester.
    const piped = spawnSync('sh', ['-c', command('person key --json')], { cwd: dir, env, encoding: 'utf8' });
    expect(JSON.parse(piped.stdout).error.code).toBe('PERSON_REQUIRED');
    const people = readFileSync(join(dir, 'agentd/people.yaml'), 'utf8');
    expect(people).toMatch(/name: "human:tester"/);
    expect(people).not.toContain(made.data.person_key);
    const scripted = spawnSync('sh', ['-c', command('reviewer add rev --json')], { cwd: dir, env: { ...env, AGENTBOARD_PERSON_KEY: made.data.person_key }, encoding: 'utf8' });
    expect(JSON.parse(scripted.stdout).data.name).toBe('rev');
    spawnSync('rm', ['-rf', dir]);
  });
});

describe('acting as a person without --as', () => {
  it('is refused in an agent environment for every command that writes, so an agent names itself', async () => {
    const dir = await boardWithDecisions();
    const r = await cli(dir, ['task', 'done', 'decide/T1', '--json'], { env: { CLAUDECODE: '1' } });
    expect(r.json.error.code).toBe('AGENT_ENVIRONMENT');
    expect((await cli(dir, ['task', 'done', 'decide/T1', '--as', 'codex', '--json'], { env: { CLAUDECODE: '1' } })).json.data.task.status).toBe('done');
  });

  it('acts as the agent `agentboard run` started, and refuses that agent acting as another', async () => {
    const dir = await boardWithDecisions();
    const env = { AGENTBOARD_AGENT_ID: 'codex' };
    const before = snapshot(dir);
    for (const args of [['task', 'note', 'decide/T1', 'Not mine.', '--as', 'gemini'], ['task', 'done', 'decide/T1', '--as', 'gemini'], ['task', 'note', 'decide/T1', 'From input.', '--input', '-']]) {
      const r = await cli(dir, [...args, '--json'], { env, stdin: '{"agent_id": "gemini"}' });
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.json.error).toMatchObject({ code: 'AGENT_MISMATCH', next_step: 'Leave out --as (the command acts as codex), or pass --as codex.' });
      expect(r.json.error.message).toContain('acting as gemini is refused');
    }
    expect(snapshot(dir)).toEqual(before);
    // Without --as, the command acts as the agent it runs for; reads may still look at others.
    expect((await cli(dir, ['task', 'note', 'decide/T1', 'Mine.', '--json'], { env })).code).toBe(0);
    expect((await ok(dir, ['task', 'show', 'decide/T1'])).task.notes.at(-1)).toMatchObject({ author: 'codex', text: 'Mine.' });
    expect((await cli(dir, ['task', 'done', 'decide/T1', '--as', 'codex', '--json'], { env })).json.data.task).toMatchObject({ status: 'done', assignee: 'codex' });
    expect((await cli(dir, ['session', 'show', '--as', 'gemini', '--json'], { env })).code).toBe(0);
    expect((await cli(dir, ['approve', 'decide', 'spec', '--json'], { env, interactive: true })).json.error.code).toBe('AGENT_ENVIRONMENT');
  });

  it('keeps the key of the tests\' own person out of what the board records', async () => {
    const dir = await newBoard();
    expect(readFileSync(join(dir, 'agentd/people.yaml'), 'utf8')).not.toContain(TEST_PERSON_KEY);
  });
});
