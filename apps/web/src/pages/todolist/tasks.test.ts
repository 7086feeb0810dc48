import { beforeEach, describe, expect, it } from 'vitest';
import { loadTasks, removeTask, saveTasks, upsertTask } from './tasks';

const at = (iso: string) => new Date(iso);

describe('to-do tasks', () => {
  beforeEach(() => window.localStorage.clear());

  it('adds, edits (keeping createdAt) and removes tasks; blank text changes nothing', () => {
    let tasks = upsertTask([], null, '  Ligar para o cliente  ', at('2026-01-02T10:00:00Z'));
    expect(tasks).toEqual([{ text: 'Ligar para o cliente', createdAt: '2026-01-02T10:00:00.000Z', updatedAt: '2026-01-02T10:00:00.000Z' }]);
    expect(upsertTask(tasks, null, '   ')).toEqual(tasks);
    expect(upsertTask(tasks, 0, ' \t ')).toEqual(tasks);
    tasks = upsertTask(tasks, null, 'Enviar proposta', at('2026-01-02T11:00:00Z'));
    tasks = upsertTask(tasks, 0, 'Ligar às 15h', at('2026-01-03T09:30:00Z'));
    expect(tasks[0]).toEqual({ text: 'Ligar às 15h', createdAt: '2026-01-02T10:00:00.000Z', updatedAt: '2026-01-03T09:30:00.000Z' });
    expect(removeTask(tasks, 0).map((t) => t.text)).toEqual(['Enviar proposta']);
  });

  it('persists in local storage and reads a damaged value as an empty list', () => {
    saveTasks(upsertTask([], null, 'Revisar contrato'));
    expect(loadTasks().map((t) => t.text)).toEqual(['Revisar contrato']);
    window.localStorage.setItem('tasks', '{not json');
    expect(loadTasks()).toEqual([]);
    window.localStorage.setItem('tasks', JSON.stringify([{ text: 'ok', createdAt: 'x', updatedAt: 'y' }, 42, { nope: true }]));
    expect(loadTasks().map((t) => t.text)).toEqual(['ok']);
  });
});
