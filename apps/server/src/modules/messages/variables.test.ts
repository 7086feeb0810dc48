import { describe, expect, it } from 'vitest';
import { fillVariables, greetingByHour } from './variables.js';

describe('fillVariables', () => {
  const now = new Date(2026, 2, 5, 14, 7, 9);
  const values = { contactName: 'Maria da Silva', userName: 'Ana', queueName: 'Vendas', connectionName: 'Loja', ticketId: 42 };

  it('fills every variable of spec 2 §9 and leaves unknown ones alone', () => {
    const template = '{{ms}} {{firstName}} | {{name}} | {{userName}} | {{protocol}} | {{date}} {{hour}} | {{ticket_id}} | {{queue}} | {{connection}} | {{other}}';
    expect(fillVariables(template, values, now)).toBe(
      'Boa tarde Maria | Maria da Silva | Ana | 2026030514070942 | 05/03/2026 14:07:09 | 42 | Vendas | Loja | {{other}}',
    );
  });

  it('tolerates spaces inside the braces and missing values', () => {
    expect(fillVariables('{{ firstName }}/{{queue}}/{{userName}}', { contactName: 'João', ticketId: 1 }, now)).toBe('João//');
  });

  it('greets by the hour', () => {
    expect([9, 12, 17, 18, 23].map((h) => greetingByHour(new Date(2026, 0, 1, h)))).toEqual(['Bom dia', 'Boa tarde', 'Boa tarde', 'Boa noite', 'Boa noite']);
  });
});
