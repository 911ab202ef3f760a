/** What a person's decision on a document shows of it. */

/**
 * The first lines of a document's body, as the person's decision shows them: blank lines left out,
 * each line's indentation kept (the YAML of a task block reads as another structure without it).
 */
export function previewLines(doc: { markdown?: unknown }): string[] {
  const body = String(doc.markdown).replace(/^---\n[\s\S]*?\n---\n/, '');
  return body
    .split('\n')
    .map((l) => l.trimEnd().replace(/\t/g, '    '))
    .filter(Boolean)
    .slice(0, 12);
}
