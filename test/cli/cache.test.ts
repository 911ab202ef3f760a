import { existsSync, utimesSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeWithTasks, newBoard, ok, read, write } from '../helpers.js';

describe('the ledger of what agentboard last wrote (also its parse cache)', () => {
  it('never answers for a file a person changed, even to the same length and mtime', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'cached', [{ title: 'Alpha' }, { title: 'Bravo', depends: ['T1'] }]);
    await ok(dir, ['next', '--as', 'codex']);
    expect(existsSync(join(dir, 'agentd/.runtime/ledger/cached.json'))).toBe(true);
    const path = 'agentd/changes/cached/tasks.md';
    const text = read(dir, path);
    const before = statSync(join(dir, path));
    // same byte length, different content, and the old mtime put back
    write(dir, path, text.replace('## T2: Bravo', '## T2: Delta'));
    utimesSync(join(dir, path), before.atime, before.mtime);
    expect(read(dir, path).length).toBe(text.length);
    expect((await ok(dir, ['task', 'show', 'cached/T2'])).task.title).toBe('Delta');
    await ok(dir, ['task', 'done', 'cached/T1', '--as', 'codex']);
    expect((await ok(dir, ['next', '--as', 'gemini'])).task.title).toBe('Delta');
  });
});

describe("the ledger's header, which sums up proposals and specs for status and list", () => {
  it('is taken for a file exactly as agentboard wrote it, and never for one a person changed', async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'summed', [{ title: 'Alpha' }]);
    const ledgerPath = 'agentd/.runtime/ledger/summed.json';
    const [first, rest] = [read(dir, ledgerPath).split('\n')[0]!, read(dir, ledgerPath).split('\n').slice(1).join('\n')];
    const header = JSON.parse(first);
    expect(header.files['proposal.md'].gist).toEqual({ title: 'summed', clean: true });
    expect(header.files['spec.md'].gist).toMatchObject({ clean: true });
    const summed = async () => {
      const status = await ok(dir, ['status']);
      const list = await ok(dir, ['list']);
      const change = status.changes.find((c: any) => c.change_id === 'summed');
      return { title: change.title, listed: list.changes[0].title, phase: change.phase, problems: status.problems.map((p: any) => p.file) };
    };
    expect(await summed()).toEqual({ title: 'summed', listed: 'summed', phase: 'implementation', problems: [] });
    // The header is what is read while the file is as written: a title put in it shows.
    header.files['proposal.md'].gist.title = 'From the header';
    write(dir, ledgerPath, `${JSON.stringify(header)}\n${rest}`);
    expect((await summed()).title).toBe('From the header');
    // A person's edit of the proposal: read in full, their title shown.
    const proposal = 'agentd/changes/summed/proposal.md';
    write(dir, proposal, read(dir, proposal).replace('# Proposal: summed', '# Proposal: Renamed by hand'));
    expect(await summed()).toEqual({ title: 'Renamed by hand', listed: 'Renamed by hand', phase: 'implementation', problems: [] });
    // A spec a person broke: read in full, its error said, the change waiting on it.
    const spec = 'agentd/changes/summed/spec.md';
    write(dir, spec, read(dir, spec).replace('## Overview', '## Overview\n\nA NUL \u0000 byte.'));
    expect(await summed()).toEqual({ title: 'Renamed by hand', listed: 'Renamed by hand', phase: 'spec', problems: [spec] });
  });
});
