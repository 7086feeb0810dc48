import { describe, expect, it } from 'vitest';
import { contactUploadFields, mappingFromHeader, mappingProblem, mappingProblemText, splitTagNames } from './contact-import.js';

describe('contact import mapping', () => {
  it('recognises Portuguese and English headers, any case and accents; the first column of a field wins', () => {
    expect(mappingFromHeader(['NOME', 'Número', 'Telefone', 'e-mail', 'Obs', ' Tags '])).toEqual(['name', 'number', null, 'email', null, 'tags']);
  });
  it("names the spec's problems: number first, then name, and a field chosen twice", () => {
    expect(mappingProblemText(mappingProblem(['name', null])!)).toBe('Não foi selecionado o campo de número do contato');
    expect(mappingProblemText(mappingProblem([null, 'number'])!)).toBe('Não foi selecionado o campo de nome do contato');
    expect(mappingProblemText(mappingProblem(['email', 'number', 'email', 'name'])!)).toBe('O campo email já foi selecionado.');
    expect(mappingProblem(['number', null, 'name'])).toBeUndefined();
  });
  it('reads the multipart fields as JSON, empty entries as unmapped', () => {
    expect(contactUploadFields.parse({ mapping: '["name","","number",null]', rows: '[2,3]' })).toEqual({ mapping: ['name', null, 'number', null], rows: [2, 3] });
    expect(contactUploadFields.safeParse({ rows: '[]' }).success).toBe(false);
    expect(contactUploadFields.safeParse({ mapping: '["telefone"]' }).success).toBe(false);
  });
  it('splits tag cells on commas and semicolons, trimmed and without repeats', () => {
    expect(splitTagNames(' VIP, Atacado;VIP ;; ')).toEqual(['VIP', 'Atacado']);
  });
});
