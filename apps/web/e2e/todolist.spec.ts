import { expect, test } from '@playwright/test';
import { expectAccessible } from './axe';
import { admin, loginUI } from './helpers';

test('to-do: add, edit and delete tasks that persist in local storage across reloads; blanks are ignored', async ({ page }) => {
  test.setTimeout(120_000);
  // Each reload starts the app again: on a busy machine that takes longer than one expectation's default.
  const reloadWait = { timeout: 30_000 };
  await loginUI(page, admin.email, admin.password);
  await page.goto('/todolist');
  await expect(page.getByTestId('page-title')).toHaveText('Tarefas', reloadWait);
  await page.evaluate(() => window.localStorage.removeItem('tasks'));
  await page.reload();
  await expect(page.getByTestId('todo-empty')).toBeVisible(reloadWait);

  const input = page.getByTestId('todo-input');
  const submit = page.getByTestId('todo-submit');
  const items = page.getByTestId('todo-item');
  await input.fill('   ');
  await submit.click();
  await expect(items).toHaveCount(0);

  await input.fill('Ligar para a Maria');
  await submit.click();
  await input.fill('Enviar a proposta');
  await input.press('Enter');
  await expect(items).toHaveCount(2);
  await expect(items.first()).toContainText('Ligar para a Maria');
  await expect(items.first()).toContainText('Atualizada em');
  await expect(input).toHaveValue('');
  await expectAccessible(page, '/todolist');

  // Edit: the button becomes Salvar, the text is changed in place, and back to Adicionar.
  await expect(submit).toHaveText('Adicionar');
  await items.first().getByRole('button', { name: 'Editar tarefa' }).click();
  await expect(input).toHaveValue('Ligar para a Maria');
  await expect(submit).toHaveText('Salvar');
  await input.fill('Ligar para a Maria às 15h');
  await submit.click();
  await expect(submit).toHaveText('Adicionar');
  await expect(items.first()).toContainText('Ligar para a Maria às 15h');

  await page.reload();
  await expect(items).toHaveCount(2, reloadWait);
  await expect(items.first()).toContainText('Ligar para a Maria às 15h');
  const stored = await page.evaluate(() => JSON.parse(window.localStorage.getItem('tasks') ?? '[]') as { text: string }[]);
  expect(stored.map((task) => task.text)).toEqual(['Ligar para a Maria às 15h', 'Enviar a proposta']);

  await items.nth(1).getByRole('button', { name: 'Excluir tarefa' }).click();
  await expect(items).toHaveCount(1);
  await page.reload();
  await expect(items).toHaveCount(1, reloadWait);
  await expect(items.first()).toContainText('Ligar para a Maria às 15h');
});
