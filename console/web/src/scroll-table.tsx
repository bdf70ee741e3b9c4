import type { ReactNode } from 'react';

/** A table that scrolls sideways on a narrow screen, headed by `columns`; `children` are its body rows. */
export function ScrollTable({ columns, children }: { columns: string[]; children: ReactNode }) {
  return (
    <div className="table-scroll">
      <table>
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
