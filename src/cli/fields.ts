/** Reads an operation's zod input shape to make command-line flags from it. */
import type * as z from 'zod';

export type FieldKind = 'string' | 'number' | 'boolean' | 'enum' | 'list' | 'files' | 'object';

export interface Field {
  name: string;
  kind: FieldKind;
  required: boolean;
  description: string;
  choices?: string[];
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  entries?: Record<string, string>;
  shape?: Record<string, z.ZodType>;
}

function def(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

function unwrap(schema: z.ZodType): { inner: z.ZodType; optional: boolean; description: string } {
  let s = schema;
  let optional = false;
  let description = s.description ?? '';
  for (;;) {
    const d = def(s);
    if (d.type === 'optional' || d.type === 'default' || d.type === 'nullable') {
      optional = true;
      s = d.innerType!;
    } else if (d.type === 'pipe') {
      s = d.in!;
    } else break;
    description ||= s.description ?? '';
  }
  return { inner: s, optional, description };
}

function kindOf(schema: z.ZodType): { kind: FieldKind; choices?: string[] } {
  const d = def(schema);
  switch (d.type) {
    case 'string':
      return { kind: 'string' };
    case 'number':
      return { kind: 'number' };
    case 'boolean':
      return { kind: 'boolean' };
    case 'enum':
      return { kind: 'enum', choices: Object.values(d.entries!) };
    case 'array': {
      const element = unwrap(d.element!).inner;
      const ed = def(element);
      if (ed.type === 'object') {
        const keys = Object.keys(ed.shape ?? {}).sort().join(',');
        return { kind: keys === 'action,path' ? 'files' : 'object' };
      }
      return ed.type === 'enum' ? { kind: 'list', choices: Object.values(ed.entries!) } : { kind: 'list' };
    }
    default:
      return { kind: 'object' };
  }
}

export function fieldsOf(shape: Record<string, z.ZodType>): Field[] {
  return Object.entries(shape).map(([name, schema]) => {
    const { inner, optional, description } = unwrap(schema);
    const k = kindOf(inner);
    const field: Field = { name, kind: k.kind, required: !optional, description };
    if (k.choices) field.choices = k.choices;
    return field;
  });
}
