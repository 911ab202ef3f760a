/** The engine's small pure parts: usage from each CLI's output, the agent's environment, run options, merge order. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.js';
import { runBoardOf } from '../../src/store/board.js';
import { createContext } from '../../src/ops/registry.js';
import { agentEnv, contractEnv } from '../../src/engine/agent-env.js';
import { isAgentMarker } from '../../src/domain/agent-markers.js';
import { runOptions } from '../../src/engine/command.js';
import { restoreCommand } from '../../src/engine/git.js';
import { dependencyOrder } from '../../src/engine/merge.js';
import { eventLine } from '../../src/engine/views/lines.js';
import { decisionOf } from '../../src/engine/gates.js';
import { resolveAgents } from '../../src/engine/settings.js';
import { UsageReader } from '../../src/engine/usage.js';
import { maskDeep, SecretMasker } from '../../src/engine/secrets.js';
import { AgentboardError } from '../../src/errors.js';

function read(lines: string[], split = 7): ReturnType<UsageReader['finish']> {
  // Chunks cut mid-line, as a pipe delivers them.
  const reader = new UsageReader();
  const text = lines.join('\n');
  for (let i = 0; i < text.length; i += split) reader.push(text.slice(i, i + split));
  return reader.finish();
}

describe('usage', () => {
  it('reads Claude Code\'s final result event: tokens with the cache, and cost', async () => {
    const usage = read([
      '{"type":"system","subtype":"init","session_id":"s"}',
      '{"type":"assistant","message":{"usage":{"input_tokens":5,"output_tokens":1}}}',
      '{"type":"result","subtype":"success","is_error":false,"total_cost_usd":0.003,"usage":{"input_tokens":300,"cache_creation_input_tokens":20,"cache_read_input_tokens":30,"output_tokens":60}}',
    ]);
    expect(usage).toEqual({ input_tokens: 350, cached_input_tokens: 30, output_tokens: 60, cost_usd: 0.003 });
  });

  it('sums Codex turns (their reasoning is a part of output_tokens, not counted again), with no cost', async () => {
    const usage = read([
      '{"type":"thread.started","thread_id":"t"}',
      '{"type":"turn.completed","usage":{"input_tokens":300,"cached_input_tokens":30,"output_tokens":60,"reasoning_output_tokens":15}}',
      '{"type":"turn.completed","usage":{"input_tokens":100,"cached_input_tokens":0,"output_tokens":10}}',
    ]);
    expect(usage).toEqual({ input_tokens: 400, cached_input_tokens: 30, output_tokens: 70, cost_usd: null });
  });

  it('reads Gemini CLI\'s result stats, with no cost', async () => {
    const usage = read(['{"type":"init","session_id":"g","model":"auto"}', '{"type":"result","status":"success","stats":{"total_tokens":360,"input_tokens":300,"output_tokens":60,"cached":12,"input":300,"duration_ms":282,"tool_calls":2}}']);
    expect(usage).toEqual({ input_tokens: 300, cached_input_tokens: 12, output_tokens: 60, cost_usd: null });
  });

  it('counts tokens as whole numbers of zero or more, and takes no negative cost', async () => {
    expect(read(['{"type":"result","subtype":"success","total_cost_usd":-100,"usage":{"input_tokens":10.5,"output_tokens":1e300,"cache_read_input_tokens":-4}}'])).toEqual({ input_tokens: 11, cached_input_tokens: 0, output_tokens: Number.MAX_SAFE_INTEGER, cost_usd: null });
  });

  it('keeps the last error each CLI reports in its own words, on one line: Claude Code\'s result, Codex\'s turn.failed, Gemini CLI\'s error event', async () => {
    const errorOf = (lines: string[]) => {
      const reader = new UsageReader();
      reader.push(lines.map((l) => `${l}\n`).join(''));
      reader.finish();
      return reader.error;
    };
    expect(errorOf(['{"type":"result","subtype":"success","is_error":true,"result":"API Error: 429\\nrate_limit_error"}'])).toBe('API Error: 429 rate_limit_error');
    expect(errorOf(['{"type":"turn.started"}', '{"type":"turn.failed","error":{"message":"429 Too Many Requests"}}'])).toBe('429 Too Many Requests');
    expect(errorOf(['{"type":"error","severity":"error","message":"Quota exceeded"}', '{"type":"result","status":"error","error":{"type":"api","message":"[API Error: 429] Resource exhausted"}}'])).toBe('[API Error: 429] Resource exhausted');
    expect(errorOf(['{"type":"result","subtype":"success","is_error":false,"result":"Done."}', 'error: not json'])).toBeNull();
  });

  it('ignores text, broken JSON and look-alikes', async () => {
    expect(read(['hello {"type":"result"}', '{"type":"result","usage":', 'not json', '{"type":"result","result":"no usage here"}'])).toEqual({ input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, cost_usd: null });
  });
});

describe('the run\'s secrets in what agents print', () => {
  const key = 'abrk_T_bWDH4Vt1TRWY1rOVm1bE0ReqvRnD7b';
  const text = `my key is ${key}; again ${key}${key} and a start: abrk_T_b, abr.`;
  const masked = 'my key is ***; again ****** and a start: abrk_T_b, abr.';

  it('are masked wherever the output is cut into chunks, a key split in two or in three', () => {
    for (let i = 0; i <= text.length; i++) {
      for (const j of [i, Math.min(i + 5, text.length)]) {
        const masker = new SecretMasker([key, 'abpk_another-secret-here']);
        const out = [text.slice(0, i), text.slice(i, j), text.slice(j)].map((c) => masker.push(c)).join('') + masker.end();
        expect(out, `cut at ${i} and ${j}`).toBe(masked);
      }
    }
  });

  it('leave what an agent said in an event masked, its shape kept', () => {
    expect(maskDeep({ type: 'tool.called', message: `said ${key}`, n: 2, ok: true, findings: [{ text: key }] }, [key])).toEqual({ type: 'tool.called', message: 'said ***', n: 2, ok: true, findings: [{ text: '***' }] });
  });
});

describe('the agent\'s environment', () => {
  it('drops what marks a shell as an agent\'s, keeps settings, and sets the AGENTBOARD_* contract', async () => {
    const parent = { PATH: '/bin', CLAUDECODE: '1', CLAUDE_CODE_ENTRYPOINT: 'cli', CLAUDE_CODE_USE_BEDROCK: '1', CODEX_THREAD_ID: 't', CODEX_HOME: '/h', GEMINI_CLI: '1', GEMINI_CLI_TRUST_WORKSPACE: 'true', CURSOR_AGENT: '1', AGENTBOARD_AGENT_ID: 'parent' };
    const env = agentEnv(parent, contractEnv({ promptFile: '/p', mcpConfig: '/m', agentId: 'codex-w1', role: 'worker', phase: 'implementation', changeId: 'c-1', taskId: 'c-1/T1', root: '/r', runId: 'R', workdir: '/w', invocation: 3 }), { EXTRA: 'x' });
    expect(env).toEqual({
      PATH: '/bin',
      CLAUDE_CODE_USE_BEDROCK: '1',
      CODEX_HOME: '/h',
      AGENTBOARD_AGENT_ID: 'codex-w1',
      AGENTBOARD_PROMPT_FILE: '/p',
      AGENTBOARD_MCP_CONFIG: '/m',
      AGENTBOARD_ROLE: 'worker',
      AGENTBOARD_PHASE: 'implementation',
      AGENTBOARD_CHANGE_ID: 'c-1',
      AGENTBOARD_TASK_ID: 'c-1/T1',
      AGENTBOARD_ROOT: '/r',
      AGENTBOARD_RUN_ID: 'R',
      AGENTBOARD_WORKDIR: '/w',
      AGENTBOARD_INVOCATION: '3',
      EXTRA: 'x',
    });
    expect(['CLAUDECODE', 'CODEX_CI', 'GEMINI_CLI', 'CURSOR_AGENT'].every(isAgentMarker)).toBe(true);
  });
});

describe('run options and agents', () => {
  /** Where --goal-file would be read from (these options give none). */
  const NO_IO = { cwd: '/nonexistent', stdin: () => '' };
  const config = { agents: { claude: { adapter: 'claude', args: [], env: {} }, codex: { adapter: 'codex', args: [], env: {} } }, run: { planner: 'claude', reviewer: 'codex', workers: ['claude', 'codex'], max_review_rounds: 3 } } as any;

  it('gives every role instance its own id, workers round-robin', async () => {
    const agents = resolveAgents(config, runOptions('add-search', { workers: '3' }, NO_IO));
    expect([agents.planner.id, agents.reviewer.id, ...agents.workers.map((w) => w.id)]).toEqual(['claude-planner', 'codex-reviewer', 'claude-w1', 'codex-w2', 'claude-w3']);
    expect(resolveAgents(config, runOptions('add-search', { worker: ['codex'], planner: 'codex' }, NO_IO)).workers.map((w) => w.id)).toEqual(['codex-w1']);
  });

  it('refuses what is not configured, saying what to add', async () => {
    const error = (() => {
      try {
        resolveAgents({ agents: {}, run: undefined } as any, runOptions('add-search', {}, NO_IO));
      } catch (err) {
        return err as AgentboardError;
      }
    })();
    expect(error?.code).toBe('RUN_NOT_CONFIGURED');
    expect(error?.nextStep).toContain('run:\n      planner: claude');
    expect(() => resolveAgents(config, runOptions('add-search', { reviewer: 'gemini' }, NO_IO))).toThrow(/The reviewer "gemini" \(--reviewer\) is not an agent of agentd\/config.yaml; its agents are claude, codex/);
  });

  it('takes minutes with decimals, and refuses what is not a number', async () => {
    expect(runOptions('a-b', { timeout: '0.5' }, NO_IO).timeoutMinutes).toBe(0.5);
    expect(() => runOptions('a-b', { timeout: 'soon' }, NO_IO)).toThrow('--timeout soon is not a number of minutes above 0');
    expect(() => runOptions('a-b', { until: 'archive' }, NO_IO)).toThrow('--until archive is not a phase.');
    // A change id that cannot be one is the command's usage, said as the command line says it (not as a tool call's fields).
    const badId = (() => {
      try {
        runOptions('sr', {}, NO_IO);
      } catch (err) {
        return err as AgentboardError;
      }
    })();
    expect([badId?.code, badId?.message, badId?.nextStep]).toEqual(['USAGE', 'Invalid input: <change_id>: a change id has 3 to 64 characters, "sr" has 2.', 'Correct the change id and run the command again (`agentboard run --help` says what it takes); nothing was changed.']);
    expect(runOptions('a-b', {}, NO_IO)).toMatchObject({ maxAttempts: 3, timeoutMinutes: 30, wait: false, merge: false, worktrees: true });
  });

  it('reads --goal-file as UTF-8 text, refusing other bytes with their line', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'goal.txt'), Buffer.from('Add search\nto the caf\xe9 page\n', 'latin1'));
    const io = { cwd: dir, stdin: () => 'A goal from standard input.' };
    expect(() => runOptions('a-b', { goalFile: 'goal.txt' }, io)).toThrow('goal.txt:2: --goal-file holds bytes that are not UTF-8 text');
    expect(runOptions('a-b', { goalFile: '-' }, io).goal).toBe('A goal from standard input.');
  });
});

describe('merge order', () => {
  it('puts a task after what it depends on, otherwise keeps the order of tasks.md', async () => {
    const t = (id: string, depends: string[] = []) => ({ id, depends });
    expect(dependencyOrder([t('T1', ['T3']), t('T2'), t('T3', ['T2']), t('T4')]).map((x) => x.id)).toEqual(['T2', 'T3', 'T1', 'T4']);
  });
});

describe('a decision made elsewhere, as the board records it', () => {
  it('is an approval by who approved, or a rejection by the author of the last feedback, with its text', () => {
    expect(decisionOf('approved', 'human:ann', [])).toEqual({ person: 'human:ann', decision: 'approve' });
    expect(decisionOf('done', null, [])).toEqual({ person: 'a person', decision: 'approve' });
    const feedback = [{ author: 'human:bob', text: 'Earlier.' }, { author: 'human:ann', text: 'Add a scenario for errors.' }];
    expect(decisionOf('rejected', null, feedback)).toEqual({ person: 'human:ann', decision: 'reject', feedback: 'Add a scenario for errors.' });
    expect(decisionOf('todo', null, feedback.slice(0, 1))).toEqual({ person: 'human:bob', decision: 'reject', feedback: 'Earlier.' });
    expect(decisionOf('submitted', null, feedback)).toBeNull();
  });
});

describe('the board of an agent in its worktree', () => {
  it('is the run\'s board where the board found is its worktree\'s copy of agentd/, and only there', () => {
    const base = tempDir();
    const [root, worktree, other] = ['repo', 'worktrees/c-1/T1', 'elsewhere'].map((d) => join(base, d));
    for (const d of [root!, worktree!, other!]) mkdirSync(join(d, 'agentd'), { recursive: true });
    mkdirSync(join(worktree!, 'src/deep'), { recursive: true });
    const env = { AGENTBOARD_AGENT_ID: 'codex-w1', AGENTBOARD_ROOT: root, AGENTBOARD_WORKDIR: worktree };
    expect(runBoardOf(worktree!, env)).toBe(root);
    expect(runBoardOf(join(worktree!, 'src/deep'), env)).toBe(root);
    // a board the agent makes elsewhere (its tests, say), the run's board itself, and anyone not started by a run keep their own
    expect(runBoardOf(other!, env)).toBeNull();
    expect(runBoardOf(root!, env)).toBeNull();
    expect(runBoardOf(worktree!, { ...env, AGENTBOARD_AGENT_ID: undefined })).toBeNull();
    expect(runBoardOf(worktree!, { ...env, AGENTBOARD_WORKDIR: root })).toBeNull();
    // an explicit --root stays what it says
    expect(createContext(worktree!, worktree!, env).root).toBe(worktree);
    expect(createContext(undefined, worktree!, env).root).toBe(root);
  });
});

describe('the git command that restores a file', () => {
  it('is named only for a committed file that changed since, from HEAD once the change is staged', async () => {
    const dir = tempDir();
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir });
    expect(await restoreCommand(dir, 'a.md')).toBeNull(); // no repository
    git('init', '-q');
    writeFileSync(join(dir, 'a.md'), 'one\n');
    expect(await restoreCommand(dir, 'a.md')).toBeNull(); // untracked
    git('add', 'a.md');
    expect(await restoreCommand(dir, 'a.md')).toBeNull(); // added, never committed
    git('commit', '-q', '-m', 'a');
    expect(await restoreCommand(dir, 'a.md')).toBeNull(); // as committed
    writeFileSync(join(dir, 'a.md'), 'two\n');
    expect(await restoreCommand(dir, 'a.md')).toBe('git checkout -- a.md');
    git('add', 'a.md');
    expect(await restoreCommand(dir, 'a.md')).toBe('git checkout HEAD -- a.md');
  });
});

describe('a run\'s plain lines', () => {
  it('flag a changed settings file apart from the notes', () => {
    const base = { at: '2026-11-22T00:00:00.000Z', run_id: 'r', agent_id: 'codex-w1', role: 'worker' as const, phase: 'implementation' };
    expect(eventLine({ ...base, type: 'settings.changed', file: 'agentd/config.yaml', task_id: 'c/T1', message: 'agentd/config.yaml changed while codex-w1 worked on c/T1.' })).toBe('[implementation] ⚠ agentd/config.yaml changed while codex-w1 worked on c/T1.');
    expect(eventLine({ ...base, type: 'notice', message: 'Something.' })).toBe('[implementation] note: Something.');
  });
});
