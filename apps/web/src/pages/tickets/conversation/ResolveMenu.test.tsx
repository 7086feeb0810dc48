import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18n from '../../../i18n';
import { addScreenTexts } from '../../../i18n/domains';
import { ResolveMenu } from './ResolveMenu';

addScreenTexts(i18n);
afterEach(cleanup);

function openMenu(farewell: boolean) {
  const onResolve = vi.fn();
  render(<ResolveMenu compact={false} disabled={false} farewell={farewell} onResolve={onResolve} />);
  fireEvent.click(screen.getByRole('button', { name: 'Resolver' }));
  return onResolve;
}

describe('the resolve menu', () => {
  it('disables "with farewell" and says why when nothing would be sent; "without" still resolves', () => {
    const onResolve = openMenu(false);
    const withFarewell = screen.getByRole('menuitem', { name: /^Resolver com mensagem de despedida/ });
    expect(withFarewell.getAttribute('aria-disabled')).toBe('true');
    expect(withFarewell.textContent).toContain('Nenhuma mensagem de despedida configurada nesta conexão');
    fireEvent.click(screen.getByRole('menuitem', { name: 'Resolver sem mensagem de despedida' }));
    expect(onResolve).toHaveBeenCalledWith(false);
  });

  it('offers "with farewell" when the connection or the user has one', () => {
    const onResolve = openMenu(true);
    const withFarewell = screen.getByRole('menuitem', { name: 'Resolver com mensagem de despedida' });
    expect(withFarewell.getAttribute('aria-disabled')).toBeNull();
    fireEvent.click(withFarewell);
    expect(onResolve).toHaveBeenCalledWith(true);
  });
});
