/**
 * A broken config.yaml or runtime store fails every call, a question to a person through agentboard
 * included: an agent is not sent to ask through agentboard (a call that fails the same way, again
 * and again), but told to say so to its person and stop calling until the file is mended.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newBoard, snapshot } from '../helpers.js';
import { connect } from './helpers.js';

const ASK = { agent_id: 'stuck', question: 'Can you mend the board?', default_action: 'Wait.' };

describe('a board file every call reads is broken', () => {
  const cases: [file: string, code: string, breakIt: (board: string) => void][] = [
    ['.runtime/state.json', 'PARSE_ERROR', (board) => writeFileSync(join(board, '.runtime/state.json'), '{"version":')],
    ['config.yaml', 'CONFIG_INVALID', (board) => writeFileSync(join(board, 'config.yaml'), 'require_approval: [nope]\n')],
    ['config.yml', 'CONFIG_INVALID', (board) => renameSync(join(board, 'config.yaml'), join(board, 'config.yml'))],
  ];
  for (const [file, code, breakIt] of cases) {
    it(`${file}: the agent is told to tell its person and stop, not to ask through agentboard`, async () => {
      const dir = await newBoard();
      const mcp = await connect(dir);
      try {
        await mcp.call('agentboard_update_status', { agent_id: 'stuck', status: 'working', message: 'Starting.' });
        breakIt(join(dir, 'agentd'));
        const before = snapshot(dir);
        for (const [tool, args] of [['agentboard_update_status', { agent_id: 'stuck', status: 'working', message: 'Going on.' }], ['agentboard_request_input', ASK]] as const) {
          const r = await mcp.call(tool, args);
          expect(r.error!.code, tool).toBe(code);
          expect(r.error!.message, tool).toMatch(new RegExp(`^agentd/${file.replace('.', '\\.')}`));
          expect(r.error!.next_step, tool).toContain('tell the person you work with, quoting this error, and make no more agentboard calls until it is mended');
          expect(r.error!.next_step, tool).not.toContain('agentboard_request_input');
        }
        expect(snapshot(dir)).toEqual(before);
      } finally {
        await mcp.close();
      }
    });
  }
});
