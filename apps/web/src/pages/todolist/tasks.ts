import { readStorage, STORAGE_KEYS, writeStorage } from '../../api/storage';

/** A to-do entry (spec 2 §3 "Local to-do task"): it lives only in this browser. */
export interface TodoTask {
  text: string;
  createdAt: string;
  updatedAt: string;
}

const isTask = (v: unknown): v is TodoTask =>
  typeof v === 'object' && v !== null && typeof (v as TodoTask).text === 'string' && typeof (v as TodoTask).updatedAt === 'string';

/** The stored list; anything unreadable (another app's value, hand edits) counts as empty rather than breaking the page. */
export function loadTasks(): TodoTask[] {
  try {
    const parsed: unknown = JSON.parse(readStorage(STORAGE_KEYS.todoTasks) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isTask) : [];
  } catch {
    return [];
  }
}

export function saveTasks(tasks: readonly TodoTask[]): void {
  writeStorage(STORAGE_KEYS.todoTasks, JSON.stringify(tasks));
}

/**
 * The list after adding a task (`index` null) or changing the text of task `index`;
 * a text of only blanks changes nothing (spec 2 §5).
 */
export function upsertTask(tasks: readonly TodoTask[], index: number | null, text: string, now: Date = new Date()): TodoTask[] {
  const trimmed = text.trim();
  if (!trimmed) return [...tasks];
  const at = now.toISOString();
  if (index === null) return [...tasks, { text: trimmed, createdAt: at, updatedAt: at }];
  return tasks.map((task, i) => (i === index ? { ...task, text: trimmed, updatedAt: at } : task));
}

export function removeTask(tasks: readonly TodoTask[], index: number): TodoTask[] {
  return tasks.filter((_, i) => i !== index);
}
