/** One drill's line in the summary a drill file prints at its end (docs/failure-modes.md reads these tables). */
export interface DrillRow {
  drill: string;
  runs: number;
  survived: number;
  lost: number;
  duplicated: number;
}

/**
 * The runs / survived / lost / duplicated table of a drill file: `record` adds a row with how long its test took
 * (timed from the test's start), `lines` lays the table out under `title`, the drill names in `width` columns.
 */
export function drillTable(title: string, width: number) {
  const rows: Array<DrillRow & { seconds: number }> = [];
  let startedAt = 0;
  beforeEach(() => {
    startedAt = Date.now();
  });
  const line = (cells: string[]) =>
    [cells[0]!.padEnd(width), ...cells.slice(1).map((cell, i) => cell.padStart([5, 9, 5, 11, 8][i]!))].join(' ');
  return {
    record(row: DrillRow): void {
      rows.push({ ...row, seconds: Math.round((Date.now() - startedAt) / 1000) });
    },
    lines(): string[] {
      return [
        line([title, 'runs', 'survived', 'lost', 'duplicated', 'seconds']),
        ...rows.map((r) => line([r.drill, ...[r.runs, r.survived, r.lost, r.duplicated, r.seconds].map(String)])),
      ];
    },
  };
}
