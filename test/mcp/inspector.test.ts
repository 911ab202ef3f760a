import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, changeWithTasks, newBoard, ROOT } from '../helpers.js';

const INSPECTOR = join(ROOT, 'node_modules', '@modelcontextprotocol', 'inspector', 'cli', 'build', 'cli.js');

function inspect(dir: string, args: string[]): any {
  const r = spawnSync(process.execPath, [INSPECTOR, '--cli', process.execPath, BIN, 'mcp', '--root', dir, ...args], { encoding: 'utf8', timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('the MCP Inspector (CLI mode)', () => {
  it('lists the tools and calls one', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'inspected', [{ title: 'Look at me' }]);
    const list = inspect(dir, ['--method', 'tools/list']);
    const names = list.tools.map((t: any) => t.name);
    expect(names).toContain('agentboard_get_next_task');
    expect(names).not.toContain('agentboard_approve_document');
    for (const tool of list.tools) {
      expect(tool.name.length).toBeLessThanOrEqual(47);
      expect(tool.outputSchema.type).toBe('object');
      expect(tool.annotations.openWorldHint).toBe(false);
    }
    const call = inspect(dir, ['--method', 'tools/call', '--tool-name', 'agentboard_get_task', '--tool-arg', 'task_id=inspected/T1']);
    expect(call.structuredContent.task).toMatchObject({ task_id: 'inspected/T1', title: 'Look at me', status: 'todo' });
  });
});
