import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBoardFile } from '../../src/store/fs.js';
import { Board } from '../../src/store/board.js';
import { sha1 } from '../../src/store/hash.js';
import { changeWithTasks, newBoard, ok, tempDir } from '../helpers.js';

const FRONT = '---\nid: x-tasks\nchange_id: x\ntype: tasks\nstatus: draft\n---\n';

function readText(text: string) {
  const dir = tempDir('agentboard-read-');
  writeFileSync(join(dir, 'f.md'), text);
  return readBoardFile(join(dir, 'f.md'), 'f.md')!;
}

describe('a file read decodes only what is asked of it', () => {
  it('head() is the text through the closing line of the frontmatter, the same characters as the start of the whole text', () => {
    const body = '# Tasks — naïve ünïcode ✓\n\n---\n\nA rule above, and another:\n---\n';
    const read = readText(FRONT + body);
    expect(read.head()).toBe(FRONT);
    expect(read.text).toBe(FRONT + body);
    expect(read.text.startsWith(read.head())).toBe(true);
    // Once decoded, the whole text is at hand: head() gives it rather than decode again.
    expect(read.head()).toBe(FRONT + body);
  });

  it('a file with no closing line, or with CRLF line ends, gives its whole text as the head', () => {
    expect(readText('---\nid: x\n').head()).toBe('---\nid: x\n');
    const crlf = FRONT.replace(/\n/g, '\r\n') + 'body\r\n';
    expect(readText(crlf).head()).toBe(crlf);
  });

  it('the hash of the bytes is the hash of the text', () => {
    const text = `${FRONT}é ✓ 😀\n`;
    const read = readText(text);
    expect(sha1(read.bytes)).toBe(sha1(text));
  });
});

describe('a board reads frontmatter and names from the bytes', () => {
  it("on a task list with non-ASCII text: next gives the agent its own task back, the agent is found in the bytes, and a person's edit is still seen", async () => {
    const dir = await newBoard();
    await changeWithTasks(dir, 'multi', [{ id: 'T1', title: 'Écrire l’index ✓' }, { id: 'T2', title: 'Second' }]);
    const agent = 'w-1';
    const first = await ok(dir, ['next', '--as', agent]);
    expect(first.status).toBe('assigned');
    const again = await ok(dir, ['next', '--as', agent]);
    expect(again.status).toBe('resumed');
    expect(again.task.task_id).toBe(first.task.task_id);
    // A person saves the list by hand: the board sees the edit (by its hash) before it uses the status.
    const path = join(dir, 'agentd', 'changes', 'multi', 'tasks.md');
    const board = new Board(dir);
    expect(board.docHead('multi', 'tasks')?.edited).toBe(false);
    const text = readBoardFile(path, 'tasks.md')!.text;
    writeFileSync(path, text.replace('Second', `Second, for ${agent}`));
    const fresh = new Board(dir);
    expect(fresh.docHead('multi', 'tasks')?.edited).toBe(true);
    expect(fresh.names('multi', 'tasks', agent)).toBe(true);
    expect(fresh.names('multi', 'tasks', 'w-9')).toBe(false);
  });
});
