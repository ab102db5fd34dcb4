import { useQueryClient } from '@tanstack/react-query';

/**
 * Changes one row of a paged admin list in every cached page at once (no reload), for a change shown before
 * the server has answered. A refetch already under way would land with the row as it was and undo the change
 * on screen: it is cancelled (its revert keeps what was written during the fetch).
 */
export function usePatchListRow<Row, Id>(queryKey: readonly unknown[], idOf: (row: Row) => Id) {
  const queryClient = useQueryClient();
  return (id: Id, patch: (row: Row) => Row) => {
    queryClient.setQueriesData<{ data: Row[] }>(
      { queryKey },
      (old) => old && { ...old, data: old.data.map((row) => (idOf(row) === id ? patch(row) : row)) },
    );
    void queryClient.cancelQueries({ queryKey });
  };
}
