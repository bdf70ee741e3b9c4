/** Columns padded to their widest cell, two spaces apart, no trailing blanks: the CLI's plain tables. */
export function table(header: string[], cells: string[][]): string {
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((c) => [...c[i]!].length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), ...cells.map(line)].join('\n');
}
