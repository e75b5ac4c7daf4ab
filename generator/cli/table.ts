/** Rows as aligned columns (two spaces apart, the last column unpadded), one line each. */
export function formatTable(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return linesOf(
    rows.map((r) => r.map((cell) => [cell])),
    widths,
  );
}

/** Narrowest a wrapped column is made, so that a word or a date stays readable. */
const MIN_WRAPPED = 12;
const GAP = 2;

/**
 * Rows as aligned columns no wider than `width` characters where it can be done: the columns
 * `wrapped` names give up width (the widest first) and their cells wrap onto further lines, at
 * spaces, else after a `.`, `/` or `,`, else anywhere. The other columns keep their width, and a
 * wrapped column is never made narrower than MIN_WRAPPED, so a very narrow width is exceeded
 * rather than making every cell a column of letters. `below` gives a row lines of its own under
 * it (indented, wrapped to the width): text too long for any column.
 */
export function formatWrappedTable(
  rows: string[][],
  width: number,
  wrapped: ReadonlySet<number>,
  below: (row: number) => string[] = () => [],
): string {
  const widths = fitWidths(rows, width, wrapped);
  const indent = "    ";
  return rows
    .map(
      (r, i) =>
        linesOf([r.map((cell, c) => (wrapped.has(c) ? wrap(cell, widths[c]!) : [cell]))], widths) +
        below(i)
          .flatMap((text) =>
            // A hanging indent: a text's continuation lines sit under its first word.
            wrap(text, Math.max(MIN_WRAPPED, width - indent.length - 2)).map(
              (line, n) => `${indent}${n === 0 ? "" : "  "}${line}\n`,
            ),
          )
          .join(""),
    )
    .join("");
}

/** Each column's width: the narrowest wrapped columns keep theirs, the rest share what is left. */
function fitWidths(rows: string[][], width: number, wrapped: ReadonlySet<number>): number[] {
  const natural = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const fixed = natural.reduce((sum, w, i) => sum + (wrapped.has(i) ? 0 : w), 0);
  const widths = [...natural];
  let budget = width - fixed - GAP * (natural.length - 1);
  const open = [...wrapped].sort((a, b) => natural[a]! - natural[b]!);
  while (open.length > 0) {
    const share = Math.max(MIN_WRAPPED, Math.floor(budget / open.length));
    const column = open.shift()!;
    widths[column] = Math.min(natural[column]!, share);
    budget -= widths[column];
  }
  return widths;
}

/** Each row's cells, each cell already cut into its lines, printed line by line. */
function linesOf(rows: string[][][], widths: readonly number[]): string {
  const out: string[] = [];
  for (const row of rows) {
    const height = Math.max(...row.map((cell) => cell.length));
    for (let line = 0; line < height; line++)
      out.push(
        row
          .map((cell, i) => {
            const text = cell[line] ?? "";
            return i === row.length - 1 ? text : text.padEnd(widths[i]!);
          })
          .join(" ".repeat(GAP))
          .trimEnd(),
      );
  }
  return `${out.join("\n")}\n`;
}

/** A cell's text in lines of at most `width` characters. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ").flatMap((w) => pieces(w, width))) {
    if (line === "") line = word;
    else if (line.length + 1 + word.length <= width) line = `${line} ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  lines.push(line);
  return lines;
}

/** A word longer than the width, cut after its last `.`, `/` or `,` that fits, else at the width. */
function pieces(word: string, width: number): string[] {
  const out: string[] = [];
  let rest = word;
  while (rest.length > width) {
    const head = rest.slice(0, width);
    const at = Math.max(head.lastIndexOf("."), head.lastIndexOf("/"), head.lastIndexOf(","));
    const cut = at > 0 ? at + 1 : width;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  out.push(rest);
  return out;
}
