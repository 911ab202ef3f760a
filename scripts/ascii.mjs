// Makes a bundle ASCII: esbuild escapes every other character outside ASCII but leaves those of
// regular expression literals as they are (the import's readers match words of many languages).
// One such character makes V8 hold the whole source as two bytes per character: reading the bundle
// and checking it against its code cache take twice as long on every command. Escaped (\uXXXX, which
// a regular expression reads as the character itself, with or without the u flag), the source is
// one byte per character. Regular expressions are found by TypeScript's parser, not by a pattern.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const ts = createRequire(import.meta.url)('typescript');
const NON_ASCII = /[^\x00-\x7f]/g;

/** Rewrites `file` with the characters outside ASCII of its regular expression literals escaped; the number of characters outside ASCII left elsewhere. */
export function asciiRegexes(file) {
  const text = readFileSync(file, 'utf8');
  if (!/[^\x00-\x7f]/.test(text)) return 0;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const parts = [];
  let at = 0;
  const visit = (node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const start = node.getStart(source);
      parts.push(text.slice(at, start), text.slice(start, node.end).replace(NON_ASCII, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
      at = node.end;
    } else ts.forEachChild(node, visit);
  };
  visit(source);
  const out = parts.join('') + text.slice(at);
  writeFileSync(file, out);
  return out.match(NON_ASCII)?.length ?? 0;
}
