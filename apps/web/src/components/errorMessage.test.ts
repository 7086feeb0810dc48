import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/http';
import { GENERIC_ERROR_MESSAGE, resolveErrorMessage, type Translator } from './errorMessage';

const tr: Translator = {
  exists: (k) => k === 'backendErrors.ERR_INVALID_CREDENTIALS',
  t: (k) => (k === 'backendErrors.ERR_INVALID_CREDENTIALS' ? 'Erro de autenticação. Por favor, tente novamente.' : k),
};

describe('resolveErrorMessage', () => {
  it('translates a known error code', () => {
    const err = new ApiError(401, { error: 'ERR_INVALID_CREDENTIALS' });
    expect(resolveErrorMessage(err, tr)).toBe('Erro de autenticação. Por favor, tente novamente.');
  });
  it('shows the raw text of an untranslated error', () => {
    expect(resolveErrorMessage(new ApiError(400, { error: 'Something odd happened' }), tr)).toBe('Something odd happened');
    expect(resolveErrorMessage({ error: 'ERR_UNKNOWN_THING' }, tr)).toBe('ERR_UNKNOWN_THING');
  });
  it('shows a plain string as is', () => {
    expect(resolveErrorMessage('Falhou', tr)).toBe('Falhou');
  });
  it('falls back to the generic message', () => {
    expect(resolveErrorMessage(new TypeError('Failed to fetch'), tr)).toBe(GENERIC_ERROR_MESSAGE);
    expect(resolveErrorMessage(undefined, tr)).toBe('An error occurred!');
    expect(resolveErrorMessage(new ApiError(500, null), tr)).toBe('An error occurred!');
  });
});
