import type { ReactNode } from 'react';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { LoadingMoreRow, TableStateRow } from './ListStates';

export interface ListTableState {
  loading: boolean;
  error: boolean;
  empty: boolean;
  onRetry?: () => void;
  loadingMore?: boolean;
  emptyText?: string;
}

interface ListTableProps {
  testId: string;
  columns: { label: ReactNode; align?: 'left' | 'center' | 'right'; width?: number }[];
  /** `usePagedList().state`, or the same built from a plain query. */
  state: ListTableState;
  /** The rows. */
  children: ReactNode;
}

/** A list screen's table: its header, its rows, then the loading / error / empty row and the next page's row. */
export function ListTable({ testId, columns, state, children }: ListTableProps) {
  const { loadingMore = false, ...states } = state;
  return (
    <Table size="small" stickyHeader data-testid={testId}>
      <TableHead>
        <TableRow>
          {columns.map((c, i) => (
            <TableCell key={i} align={c.align} sx={c.width ? { width: c.width } : undefined}>
              {c.label}
            </TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {children}
        <TableStateRow colSpan={columns.length} {...states} />
        <LoadingMoreRow colSpan={columns.length} show={loadingMore} />
      </TableBody>
    </Table>
  );
}
