/**
 * Runs `task` over `items`, at most `lanes` at a time, and answers the results in order:
 * a burst (the schedule engine's due minute) overlaps its round trips to the database
 * without opening one connection per item.
 */
export async function inLanes<T, R>(items: readonly T[], lanes: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await task(items[i]!, i);
  };
  await Promise.all(Array.from({ length: Math.min(lanes, items.length) }, lane));
  return results;
}
