import { describe, expect, it } from 'vitest';
import { mergeConflict } from '../../src/store/conflict-markers.js';

describe('an unresolved git merge conflict in a text', () => {
  it('is found only as the whole structure of markers, with its lines', () => {
    expect(mergeConflict('a\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> 1234abc\nb\n')).toEqual({ start: 2, end: 6 });
    expect(mergeConflict('<<<<<<< HEAD\r\nours\r\n||||||| base\r\nold\r\n=======\r\ntheirs\r\n>>>>>>> main\r\n')).toEqual({ start: 1, end: 7 });
    // A markdown heading underlined with "=", and marker-like lines that are not a conflict.
    expect(mergeConflict('Title\n=======\n\ntext\n')).toBeNull();
    expect(mergeConflict('<<<<<<< HEAD\nours\n>>>>>>> main\n')).toBeNull();
    expect(mergeConflict('=======\n>>>>>>> main\n')).toBeNull();
    expect(mergeConflict('a <<<<<<< b\n=======\n>>>>>>> c\n')).toBeNull();
  });
});
