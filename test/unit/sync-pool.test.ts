import { closeSync, fsyncSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syncAll } from '../../src/store/fs.js';
import { fsyncEach, useSyncPool } from '../../src/store/sync-pool.js';
import { tempDir } from '../helpers.js';

describe('fsyncs made at once', () => {
  it("makes every fsync of each round with the pool's threads, and gives each one's error in its place", () => {
    useSyncPool();
    const dir = tempDir('agentboard-sync-');
    // fsync of a character device is refused (EINVAL): the slots where that must come back are known.
    const device = openSync('/dev/null', 'r');
    let inThisThread = 0;
    let made = 0;
    try {
      for (let round = 0; round < 30; round++) {
        const fds: number[] = [];
        const refused = new Set<number>();
        for (let i = 0; i < 40; i++) {
          if ((i * 7 + round) % 9 === 0) {
            refused.add(i);
            fds.push(device);
            continue;
          }
          const path = join(dir, `f-${round}-${i}`);
          writeFileSync(path, `round ${round}, file ${i}\n`.repeat(i + 1));
          fds.push(openSync(path, 'r'));
        }
        const errors = fsyncEach(fds, (fd) => {
          inThisThread++;
          fsyncSync(fd);
        });
        made += fds.length;
        expect(errors).toHaveLength(40);
        errors.forEach((err, i) => {
          if (refused.has(i)) expect(err?.code, `slot ${i} of round ${round}`).toBe('EINVAL');
          else expect(err, `slot ${i} of round ${round}`).toBeNull();
        });
        for (const fd of fds) if (fd !== device) closeSync(fd);
      }
    } finally {
      closeSync(device);
    }
    // The calling thread made its share, and the pool's threads the rest.
    expect(inThisThread).toBeGreaterThan(0);
    expect(inThisThread).toBeLessThan(made);
  });

  it('fails a commit whose file cannot be made durable, naming that file, once every other fsync is made', () => {
    useSyncPool();
    const dir = tempDir('agentboard-sync-');
    const files = ['a', 'b', 'c', 'd'].map((name) => join(dir, name));
    for (const f of files) writeFileSync(f, `${f}\n`);
    expect(() => syncAll(files, [dir], (p) => p.replace(dir, 'board'))).not.toThrow();
    // The device in a file's place: its fsync is refused, and the error says which file it was.
    expect(() => syncAll([files[0]!, '/dev/null', ...files.slice(1)], [dir], (p) => p.replace(dir, 'board'))).toThrow(/Could not write \/dev\/null \(EINVAL\)/);
  });
});
