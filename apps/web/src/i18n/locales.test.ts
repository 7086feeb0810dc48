import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@balcao/contracts';
import ptBR from './locales/pt-BR';
import en from './locales/en';
import es from './locales/es';
import tr from './locales/tr';
import { withDomains } from './domain';
import { SCREEN_DOMAIN_MESSAGES } from './domains';
import { PUBLIC_DOMAIN_MESSAGES } from './index';

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : leaves(v, `${prefix}${k}.`)));
}

describe('locales', () => {
  it('translate every error code of the contracts', () => {
    for (const locale of [ptBR, en, es, tr]) {
      for (const code of ERROR_CODES) expect(locale.backendErrors[code], code).toBeTruthy();
    }
  });
  it('have the same keys and no empty text, domain texts included', () => {
    const domains = { ...PUBLIC_DOMAIN_MESSAGES, ...SCREEN_DOMAIN_MESSAGES };
    const keys = leaves(withDomains(ptBR, 'pt-BR', domains) as Tree).sort();
    for (const locale of [withDomains(en, 'en', domains), withDomains(es, 'es', domains), withDomains(tr, 'tr', domains)] as Tree[]) {
      expect(leaves(locale).sort()).toEqual(keys);
      for (const v of leaves(locale)) expect(v).not.toBe('');
    }
  });
  it('quote the spec strings in pt-BR', () => {
    expect(ptBR.offline).toBe('Sem conexão com a internet. Aplicação rodando em modo offline.');
    expect(ptBR.session.otherComputer).toBe('Sua conta foi acessada em outro computador.');
    expect(ptBR.topBar.newVersion).toBe('Nova versão disponível!');
    expect(ptBR.forbidden.title).toBe('Oops! Acesso Negado!');
  });
});
