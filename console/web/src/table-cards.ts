import { useEffect, type RefObject } from 'react';

/**
 * Every table on a page becomes a list of cards below 640 px (`table.cards` in styles.css): this marks each table
 * `cards` and names each body cell after its column (`data-label`, by position, from the header row) so the card can
 * show it. A cell with its own `data-label` keeps it; a table marked `data-keep-table` is left as a table.
 */
export function labelTables(root: ParentNode): void {
  for (const table of Array.from(root.querySelectorAll<HTMLTableElement>('table:not([data-keep-table])'))) {
    const head = table.tHead?.rows[0];
    if (!head) continue;
    const columns = Array.from(head.cells).map((cell) => cell.textContent?.trim() ?? '');
    table.classList.add('cards');
    for (const body of Array.from(table.tBodies)) {
      for (const row of Array.from(body.rows)) {
        Array.from(row.cells).forEach((cell, index) => {
          const label = columns[index];
          if (label && !cell.dataset.label) cell.dataset.label = label;
        });
      }
    }
  }
}

/**
 * Keeps every table under `root` labelled as pages render and rows arrive. Mutations are batched to one pass per
 * animation frame, so a streaming timeline (many mutations, no table) costs one cheap query per frame at most.
 */
export function useTableCards(root: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = root.current;
    if (!element) return;
    let frame = 0;
    const schedule = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        labelTables(element);
      });
    };
    labelTables(element);
    const observer = new MutationObserver(schedule);
    observer.observe(element, { childList: true, subtree: true });
    return () => {
      observer.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [root]);
}
