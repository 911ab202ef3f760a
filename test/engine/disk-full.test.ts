/**
 * agentboard run on a disk that fills: an agent's output that cannot be kept does not stop the
 * run, and a run record that cannot be written stops it with an error that says the agents' work is kept.
 */
import { describe, expect, it } from 'vitest';
import { Transcript } from '../../src/engine/transcript.js';
import { ok } from '../helpers.js';
import { fakeBoard, jsonLines, run } from './helpers.js';

const GOAL = ['--goal', 'Let people search the board by title.'];

describe('agentboard run on a full disk', () => {
  it('a transcript whose writes fail (a full disk) ends quietly: the run is not stopped by it', async () => {
    // /dev/full fails every write with ENOSPC, as a full disk does
    const transcript = new Transcript('/dev/full', []);
    transcript.write('x'.repeat(100_000));
    await transcript.end();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(transcript.write('more')).toBe('more');
  });

  it('a run record that cannot be written: DISK_FULL saying the agents’ work is kept, and the same command goes on', async () => {
    const board = await fakeBoard({ scenario: { proposal: ['valid'], spec: ['valid'] } });
    const r = run(board.dir, ['add-search', ...GOAL, '--until', 'proposal'], { AGENTBOARD_TEST_FAULT: 'errno:ENOSPC:run.json@4' });
    expect(r.code).toBe(1);
    const error = jsonLines(r.stdout).at(-1).error;
    expect(error.code).toBe('DISK_FULL');
    expect(error.message).toContain('The run stopped here; what its agents did on the board is kept');
    expect(error.message).not.toContain('Nothing was changed');
    expect((await ok(board.dir, ['list'])).changes[0]).toMatchObject({ change_id: 'add-search', phase: 'spec' });
    expect(run(board.dir, ['add-search', '--until', 'spec']).events.at(-1)).toMatchObject({ outcome: 'finished' });
  });
});
