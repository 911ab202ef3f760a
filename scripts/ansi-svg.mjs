// Turns a terminal screen captured with its colours (`tmux capture-pane -e -p`) into an SVG: one
// line of cells per row, each run of cells with the same style as one <text> stretched to exactly
// its cells, so that the picture keeps the terminal's grid whatever monospace font draws it.

const PALETTE = {
  background: '#1e2127',
  foreground: '#d7dae0',
  // black, red, green, yellow, blue, magenta, cyan, white; then their bright forms
  colors: ['#1e2127', '#e06c75', '#98c379', '#e5c07b', '#61afef', '#c678dd', '#56b6c2', '#dcdfe4', '#5c6370', '#e06c75', '#98c379', '#e5c07b', '#61afef', '#c678dd', '#56b6c2', '#ffffff'],
};

const CELL_W = 8.4;
const CELL_H = 18;
const PAD = 14;
const FONT = "'DejaVu Sans Mono', 'Menlo', 'Consolas', 'Liberation Mono', monospace";

const plain = () => ({ fg: null, bg: null, bold: false, dim: false, italic: false, underline: false, inverse: false });

/** The 256-colour palette: the 16 above, a 6×6×6 cube, and 24 greys. */
function color256(n) {
  if (n < 16) return PALETTE.colors[n];
  if (n >= 232) {
    const v = 8 + (n - 232) * 10;
    return `rgb(${v},${v},${v})`;
  }
  const i = n - 16;
  const c = (x) => (x === 0 ? 0 : 55 + x * 40);
  return `rgb(${c(Math.floor(i / 36))},${c(Math.floor(i / 6) % 6)},${c(i % 6)})`;
}

function applySgr(style, params) {
  const p = params.length ? params : [0];
  for (let i = 0; i < p.length; i++) {
    const n = p[i];
    if (n === 0) Object.assign(style, plain());
    else if (n === 1) style.bold = true;
    else if (n === 2) style.dim = true;
    else if (n === 3) style.italic = true;
    else if (n === 4) style.underline = true;
    else if (n === 7) style.inverse = true;
    else if (n === 22) style.bold = style.dim = false;
    else if (n === 23) style.italic = false;
    else if (n === 24) style.underline = false;
    else if (n === 27) style.inverse = false;
    else if (n >= 30 && n <= 37) style.fg = PALETTE.colors[n - 30];
    else if (n >= 90 && n <= 97) style.fg = PALETTE.colors[n - 90 + 8];
    else if (n === 39) style.fg = null;
    else if (n >= 40 && n <= 47) style.bg = PALETTE.colors[n - 40];
    else if (n >= 100 && n <= 107) style.bg = PALETTE.colors[n - 100 + 8];
    else if (n === 49) style.bg = null;
    else if ((n === 38 || n === 48) && p[i + 1] === 5) {
      style[n === 38 ? 'fg' : 'bg'] = color256(p[i + 2]);
      i += 2;
    } else if ((n === 38 || n === 48) && p[i + 1] === 2) {
      style[n === 38 ? 'fg' : 'bg'] = `rgb(${p[i + 2]},${p[i + 3]},${p[i + 4]})`;
      i += 4;
    }
  }
}

/** Each row as cells: a character and the style it is drawn in. */
export function parseScreen(text) {
  const style = plain();
  return text.replace(/\n$/, '').split('\n').map((line) => {
    const cells = [];
    for (let i = 0; i < line.length; ) {
      if (line[i] === '\u001b') {
        const m = /^\u001b\[([0-9;]*)([A-Za-z])/.exec(line.slice(i));
        if (m) {
          if (m[2] === 'm') applySgr(style, m[1] ? m[1].split(';').map(Number) : []);
          i += m[0].length;
          continue;
        }
      }
      const ch = String.fromCodePoint(line.codePointAt(i));
      cells.push({ ch, style: { ...style } });
      i += ch.length;
    }
    return cells;
  });
}

const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

export function screenToSvg(text, { columns, rows, title = 'agentboard board' }) {
  const lines = parseScreen(text);
  const width = columns * CELL_W + 2 * PAD;
  const height = rows * CELL_H + 2 * PAD + 22;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escape(title)}">`,
    `<rect width="${width}" height="${height}" rx="8" fill="${PALETTE.background}"/>`,
    ...['#e06c75', '#e5c07b', '#98c379'].map((c, i) => `<circle cx="${PAD + 6 + i * 18}" cy="14" r="5.5" fill="${c}"/>`),
    `<g font-family="${FONT}" font-size="14" xml:space="preserve">`,
  ];
  const top = PAD + 22;
  lines.slice(0, rows).forEach((cells, row) => {
    const y = top + row * CELL_H;
    for (let col = 0; col < cells.length; ) {
      let end = col + 1;
      while (end < cells.length && same(cells[end].style, cells[col].style)) end++;
      const s = cells[col].style;
      const fg = (s.inverse ? s.bg ?? PALETTE.background : s.fg ?? PALETTE.foreground);
      const bg = s.inverse ? s.fg ?? PALETTE.foreground : s.bg;
      const x = PAD + col * CELL_W;
      const w = (end - col) * CELL_W;
      if (bg) out.push(`<rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${CELL_H}" fill="${bg}"/>`);
      const runText = cells.slice(col, end).map((c) => c.ch).join('');
      if (runText.trim()) {
        const attrs = [`x="${x.toFixed(1)}"`, `y="${y + 13}"`, `fill="${fg}"`, `textLength="${w.toFixed(1)}"`, 'lengthAdjust="spacingAndGlyphs"'];
        if (s.bold) attrs.push('font-weight="bold"');
        if (s.dim) attrs.push('opacity="0.6"');
        if (s.italic) attrs.push('font-style="italic"');
        if (s.underline) attrs.push('text-decoration="underline"');
        out.push(`<text ${attrs.join(' ')}>${escape(runText)}</text>`);
      }
      col = end;
    }
  });
  out.push('</g>', '</svg>');
  return `${out.join('\n')}\n`;
}
