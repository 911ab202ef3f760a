/**
 * A small mustache subset for the markdown templates in templates/: `{{name}}` inserts a value,
 * `{{#name}}…{{/name}}` repeats over a list (or shows once for any other non-empty value) and
 * `{{^name}}…{{/name}}` shows when the value is empty. A tag alone on its line takes the line with it.
 * Values are inserted as they are: callers escape user text before it gets here.
 */

type Context = Record<string, unknown>;
type Node = { kind: 'text'; text: string } | { kind: 'var'; name: string } | { kind: 'section'; name: string; inverted: boolean; body: Node[] };

const TAG = /\{\{([#^/]?)\s*([A-Za-z_][\w]*)\s*\}\}/g;
const STANDALONE = /^[ \t]*\{\{[#^/]\s*[A-Za-z_][\w]*\s*\}\}[ \t]*$/;

const cache = new Map<string, Node[]>();

function parse(template: string): Node[] {
  const cached = cache.get(template);
  if (cached) return cached;
  const root: Node[] = [];
  const stack: { name: string; nodes: Node[] }[] = [{ name: '', nodes: root }];
  const lines = template.split(/(?<=\n)/);
  for (const line of lines) {
    const bare = line.endsWith('\n') ? line.slice(0, -1) : line;
    const standalone = STANDALONE.test(bare);
    const source = standalone ? bare.trim() : line;
    let last = 0;
    for (const m of source.matchAll(TAG)) {
      const top = stack[stack.length - 1]!;
      if (m.index! > last) top.nodes.push({ kind: 'text', text: source.slice(last, m.index) });
      last = m.index! + m[0].length;
      const [, sigil, name] = m as unknown as [string, string, string];
      if (sigil === '#' || sigil === '^') {
        const section: Node = { kind: 'section', name, inverted: sigil === '^', body: [] };
        top.nodes.push(section);
        stack.push({ name, nodes: section.body });
      } else if (sigil === '/') {
        if (top.name !== name) throw new Error(`template: {{/${name}}} closes {{#${top.name}}}`);
        stack.pop();
      } else {
        top.nodes.push({ kind: 'var', name });
      }
    }
    if (last < source.length) stack[stack.length - 1]!.nodes.push({ kind: 'text', text: source.slice(last) });
  }
  if (stack.length !== 1) throw new Error(`template: {{#${stack[stack.length - 1]!.name}}} is not closed`);
  cache.set(template, root);
  return root;
}

function lookup(contexts: Context[], name: string): unknown {
  for (let i = contexts.length - 1; i >= 0; i--) {
    if (Object.prototype.hasOwnProperty.call(contexts[i], name)) return contexts[i]![name];
  }
  return undefined;
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === false || value === '' || (Array.isArray(value) && value.length === 0);
}

function renderNodes(nodes: Node[], contexts: Context[]): string {
  let out = '';
  for (const node of nodes) {
    if (node.kind === 'text') out += node.text;
    else if (node.kind === 'var') {
      const value = lookup(contexts, node.name);
      out += value === undefined || value === null ? '' : String(value);
    } else {
      const value = lookup(contexts, node.name);
      if (node.inverted) {
        if (isEmpty(value)) out += renderNodes(node.body, contexts);
      } else if (Array.isArray(value)) {
        for (const item of value) out += renderNodes(node.body, [...contexts, item as Context]);
      } else if (!isEmpty(value)) {
        out += renderNodes(node.body, contexts);
      }
    }
  }
  return out;
}

export function renderTemplate(template: string, context: Context): string {
  return renderNodes(parse(template), [context]);
}
