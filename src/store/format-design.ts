/** design.md body: free markdown (context, decisions, risks), kept exactly as written. */
import type { Design } from '../domain/model.js';
import { normalizeText, outline, TextLines } from './markdown.js';

export function renderDesignBody(design: Design): string {
  return `${normalizeText(design.text)}\n`;
}

export function parseDesignBody(body: string): Design {
  const text = normalizeText(body);
  const h1 = outline(new TextLines(text)).find((h) => h.level === 1);
  return { title: h1 ? h1.text.replace(/^design\s*:\s*/i, '') : '', text };
}
