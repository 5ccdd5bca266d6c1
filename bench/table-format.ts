/** A titled table of cells (already formatted as text). @example `{ title: 'Targets', headers: ['target', 'result'], rows: [['a', 'PASS']] }` */
export interface Section {
  readonly title: string;
  readonly headers: readonly string[];
  readonly rows: readonly (readonly string[])[];
  /** Lines printed under the table. */
  readonly notes?: readonly string[];
  /** Columns to right-align (numbers). */
  readonly numeric?: readonly number[];
}

/** A section as aligned plain text for the terminal. @example `console.log(toText(section))` */
export function toText(section: Section): string {
  const widths = section.headers.map((h, c) => Math.max(h.length, ...section.rows.map((r) => (r[c] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, c) => (section.numeric?.includes(c) ? cell.padStart(widths[c] ?? 0) : cell.padEnd(widths[c] ?? 0)))
      .join('  ')
      .trimEnd();
  const out = [
    section.title,
    line(section.headers),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...section.rows.map(line),
  ];
  for (const note of section.notes ?? []) out.push(`  ${note}`);
  return out.join('\n');
}

/** A section as a GitHub markdown table under a `###` heading. @example `toMarkdown(section)` */
export function toMarkdown(section: Section): string {
  const esc = (cell: string): string => cell.replace(/\|/g, '\\|');
  const align = section.headers.map((_, c) => (section.numeric?.includes(c) ? '---:' : '---'));
  const out = [`### ${section.title}`, '', `| ${section.headers.map(esc).join(' | ')} |`, `| ${align.join(' | ')} |`];
  for (const row of section.rows) out.push(`| ${row.map(esc).join(' | ')} |`);
  if (section.notes !== undefined && section.notes.length > 0) out.push('', ...section.notes.map((n) => `- ${n}`));
  return out.join('\n');
}

/** Formats a number with thousands separators and at most `digits` decimals. @example `num(12345.678) // '12,346'` */
export function num(value: number | undefined, digits = 0): string {
  if (value === undefined || !Number.isFinite(value)) return '-';
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}
