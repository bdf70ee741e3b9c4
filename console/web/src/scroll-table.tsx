import type { ReactNode } from 'react';

/**
 * A table headed by `columns`; `children` are its body rows. Wide screens scroll it sideways if it must; below 640 px
 * it is a list of cards (`table.cards` in styles.css), each cell labelled with its column's name by the app shell
 * (`table-cards.ts`), so a row component need not repeat the column names.
 */
export function ScrollTable({ columns, children }: { columns: string[]; children: ReactNode }) {
  return (
    <div className="table-scroll">
      <table className="cards">
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
