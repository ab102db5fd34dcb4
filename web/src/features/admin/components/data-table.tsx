import { flexRender, type Row, type Table } from '@tanstack/react-table';
import type { HTMLAttributes } from 'react';

/**
 * The markup of a TanStack Table in the back office: headers and cells rendered from the column
 * definitions, each tagged with its column id (data-col) for styling; rows may add their own attributes.
 */
export function DataTable<T>({ table, rowProps }: { table: Table<T>; rowProps?: (row: Row<T>) => HTMLAttributes<HTMLTableRowElement> }) {
  return (
    <table className="admin-table">
      <thead>
        {table.getHeaderGroups().map((group) => (
          <tr key={group.id}>
            {group.headers.map((header) => (
              <th key={header.id} data-col={header.column.id}>
                {flexRender(header.column.columnDef.header, header.getContext())}
              </th>
            ))}
          </tr>
        ))}
      </thead>
      <tbody>
        {table.getRowModel().rows.map((row) => (
          <tr key={row.id} {...rowProps?.(row)}>
            {row.getVisibleCells().map((cell) => (
              <td key={cell.id} data-col={cell.column.id}>
                {flexRender(cell.column.columnDef.cell, cell.getContext())}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
