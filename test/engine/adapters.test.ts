/**
 * The command lines the built-in adapters make, as snapshots. Sources for each flag (H: in that
 * version's --help; X: run offline against the installed CLI; D: docs):
 *
 * claude (2.1.197 and 2.1.330)
 *   -p                          H; D https://code.claude.com/docs/en/headless
 *   --output-format stream-json H; needs --verbose in print mode, else exit 1 (X)
 *   --verbose                   H
 *   --mcp-config <file>         H (variadic: file paths or JSON strings); D https://code.claude.com/docs/en/cli-reference
 *   --strict-mcp-config         H: only the servers of --mcp-config
 *   --model                     H
 *   --tools ""                  H: "" for none; X: init lists only the mcp__agentboard tools
 *   --tools "Read,Edit,…,Bash"  H: tool names
 *   --permission-mode           H; dontAsk and acceptEdits in both versions; D https://code.claude.com/docs/en/permission-modes
 *   --allowedTools              H (variadic); "mcp__agentboard" allows the whole server, D https://docs.anthropic.com/en/docs/claude-code/cli-reference
 *   prompt on stdin             H, T (shared/AGENT-CLIS.md): -p without a prompt argument reads stdin
 * codex exec (0.169.0)
 *   exec --json                 H; D https://developers.openai.com/codex/noninteractive
 *   -C <dir>                    H
 *   --skip-git-repo-check       H: outside git exec exits 1 without it (X)
 *   --ephemeral                 H
 *   -s read-only|workspace-write  H
 *   --disable shell_tool / unified_exec  H (--disable <FEATURE>); X: both feature names parse
 *   -c approval_policy="never"  H (-c key=value, TOML); exec has no -a (exit 2, X)
 *   -c web_search="disabled"    H (-c)
 *   -c mcp_servers.agentboard.* command, args, default_tools_approval_mode="approve", required=true: shared/AGENT-CLIS.md (tested)
 *   -m <model>                  H
 *   - last                      H ([PROMPT]: "-" or none reads the prompt from stdin), T
 * gemini (0.61.0)
 *   -p <text>                   H ("Appended to input on stdin (if any)"): the prompt on stdin, a short -p after it; D https://geminicli.com/docs/cli/tutorials/automation
 *   -o stream-json              H
 *   -m <model>                  H
 *   --skip-trust                H; without it, stdio MCP servers exit 55 (X)
 *   --allowed-mcp-server-names  H
 *   --policy <file>             H; D https://geminicli.com/docs/reference/policy-engine
 *   --approval-mode auto_edit   H
 *   GEMINI_CLI_HOME             X: <home>/.gemini/settings.json is read; D https://geminicli.com/docs/reference/configuration
 */
import { describe, expect, it } from 'vitest';
import { adapterFor } from '../../src/engine/adapters/index.js';
import type { LaunchRequest } from '../../src/engine/adapters/types.js';
import type { AgentInstance } from '../../src/engine/settings.js';
import type { AgentSettings } from '../../src/store/config.js';

function request(adapter: AgentSettings['adapter'], role: AgentInstance['role'], model?: string): LaunchRequest {
  const config: AgentSettings = { adapter, args: [], env: {}, ...(model ? { model } : {}) };
  const agent: AgentInstance = { id: `${adapter}-${role}`, name: adapter!, role, config };
  return {
    agent,
    prompt: 'PROMPT',
    promptFile: '/repo/agentd/.runtime/runs/R/001.prompt.md',
    mcpConfigFile: '/repo/agentd/.runtime/runs/R/001.mcp.json',
    mcpServer: { command: '/usr/bin/node', args: ['/opt/agentboard/bin/agentboard.js', 'mcp', '--root', '/repo', '--as', agent.id, '--profile', role] },
    filesBase: '/repo/agentd/.runtime/runs/R/001',
    workdir: '/work/T1',
    values: {},
  };
}

const line = (r: LaunchRequest) => {
  const l = adapterFor(r.agent.config)(r);
  return [l.command, ...l.args].join(' | ');
};

describe('the built-in adapters', () => {
  it('claude: planner and reviewer through agentboard only, worker with edits and the tests', async () => {
    expect(line(request('claude', 'planner', 'opus'))).toMatchInlineSnapshot(`"claude | -p | --output-format | stream-json | --verbose | --mcp-config | /repo/agentd/.runtime/runs/R/001.mcp.json | --strict-mcp-config | --model | opus | --tools |  | --permission-mode | dontAsk | --allowedTools | mcp__agentboard"`);
    expect(line(request('claude', 'worker'))).toMatchInlineSnapshot(`"claude | -p | --output-format | stream-json | --verbose | --mcp-config | /repo/agentd/.runtime/runs/R/001.mcp.json | --strict-mcp-config | --tools | Read,Edit,Write,Glob,Grep,Bash | --permission-mode | acceptEdits | --allowedTools | mcp__agentboard | Bash(npm test *)"`);
  });

  it('codex: read-only without a shell for planners, workspace-write for workers, the server approved and required', async () => {
    expect(line(request('codex', 'reviewer', 'gpt-5-codex'))).toMatchInlineSnapshot(`"codex | exec | --json | -C | /work/T1 | --skip-git-repo-check | --ephemeral | -s | read-only | --disable | shell_tool | --disable | unified_exec | -c | approval_policy="never" | -c | web_search="disabled" | -c | mcp_servers.agentboard.command="/usr/bin/node" | -c | mcp_servers.agentboard.args=["/opt/agentboard/bin/agentboard.js", "mcp", "--root", "/repo", "--as", "codex-reviewer", "--profile", "reviewer"] | -c | mcp_servers.agentboard.default_tools_approval_mode="approve" | -c | mcp_servers.agentboard.required=true | -m | gpt-5-codex | -"`);
    expect(line(request('codex', 'worker'))).toMatchInlineSnapshot(`"codex | exec | --json | -C | /work/T1 | --skip-git-repo-check | --ephemeral | -s | workspace-write | -c | approval_policy="never" | -c | web_search="disabled" | -c | mcp_servers.agentboard.command="/usr/bin/node" | -c | mcp_servers.agentboard.args=["/opt/agentboard/bin/agentboard.js", "mcp", "--root", "/repo", "--as", "codex-worker", "--profile", "worker"] | -c | mcp_servers.agentboard.default_tools_approval_mode="approve" | -c | mcp_servers.agentboard.required=true | -"`);
  });

  it('gemini: the server in a home of its own, agentboard-only policy for planners, auto_edit for workers', async () => {
    const planner = adapterFor({ adapter: 'gemini', args: [], env: {} })(request('gemini', 'planner'));
    expect(line(request('gemini', 'planner'))).toMatchInlineSnapshot(`"gemini | -p | Do what the instructions above say. | -o | stream-json | --skip-trust | --allowed-mcp-server-names | agentboardrun | --policy | /repo/agentd/.runtime/runs/R/001.gemini-policy.toml"`);
    expect(line(request('gemini', 'worker'))).toMatchInlineSnapshot(`"gemini | -p | Do what the instructions above say. | -o | stream-json | --skip-trust | --allowed-mcp-server-names | agentboardrun | --policy | /repo/agentd/.runtime/runs/R/001.gemini-policy.toml | --approval-mode | auto_edit"`);
    expect(planner.env).toEqual({ GEMINI_CLI_HOME: '/repo/agentd/.runtime/runs/R/001.gemini-home' });
    expect(planner.files.map((f) => f.path)).toEqual(['/repo/agentd/.runtime/runs/R/001.gemini-home/.gemini/settings.json', '/repo/agentd/.runtime/runs/R/001.gemini-policy.toml']);
    expect(JSON.parse(planner.files[0]!.content)).toEqual({ mcpServers: { agentboardrun: { command: '/usr/bin/node', args: ['/opt/agentboard/bin/agentboard.js', 'mcp', '--root', '/repo', '--as', 'gemini-planner', '--profile', 'planner'] } } });
    expect(planner.files[1]!.content).toMatchInlineSnapshot(`
      "[[rule]]
      toolName = "*"
      decision = "deny"
      priority = 100

      [[rule]]
      mcpName = "agentboardrun"
      toolName = "*"
      decision = "allow"
      priority = 200
      "
    `);
  });

  it('appends the arguments config.yaml adds to an agent (before codex\'s - that reads the prompt)', async () => {
    const r = request('claude', 'planner');
    r.agent.config.args = ['--max-turns', '30'];
    expect(adapterFor(r.agent.config)(r).args.slice(-2)).toEqual(['--max-turns', '30']);
    const c = request('codex', 'planner');
    c.agent.config.args = ['-c', 'model_reasoning_effort="high"'];
    expect(adapterFor(c.agent.config)(c).args.slice(-3)).toEqual(['-c', 'model_reasoning_effort="high"', '-']);
  });

  it('give claude, codex and gemini the prompt on stdin, never as an argument (Linux caps one at 128 KiB)', async () => {
    for (const cli of ['claude', 'codex', 'gemini'] as const) {
      const launch = adapterFor({ adapter: cli, args: [], env: {} })(request(cli, 'worker'));
      expect(launch.stdin).toBe('PROMPT');
      expect(launch.args).not.toContain('PROMPT');
    }
  });

  it('custom: placeholders replaced anywhere in an argument', async () => {
    const r = request(undefined, 'worker');
    r.agent.config = { command: ['python3', '{root}/tools/agent.py', '--task={task_id}', '{prompt_file}', '{unknown}'], args: ['{role}'], env: {} };
    r.values = { root: '/repo', task_id: 'add-search/T1', prompt_file: '/p.md', role: 'worker' };
    expect(adapterFor(r.agent.config)(r)).toEqual({ command: 'python3', args: ['/repo/tools/agent.py', '--task=add-search/T1', '/p.md', '{unknown}', 'worker'], env: {}, files: [] });
  });
});
