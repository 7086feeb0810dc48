import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@balcao/contracts';
import ptBR from './locales/pt-BR';
import en from './locales/en';
import es from './locales/es';
import tr from './locales/tr';
import { withDomains } from './domain';
import { SCREEN_DOMAIN_MESSAGES } from './domains';
import { PUBLIC_DOMAIN_MESSAGES } from './index';
import type { DomainMessages } from './domain';

/** Every screen's texts, the lazily mounted ones included (`./mount`), by export name. */
const PAGE_TEXTS = Object.fromEntries(
  Object.values(import.meta.glob<Record<string, unknown>>(['../pages/**/texts.ts', '../pages/**/*Texts.ts'], { eager: true })).flatMap((module) =>
    Object.entries(module).filter((entry): entry is [string, DomainMessages<object>] => typeof entry[1] === 'object' && entry[1] !== null && 'pt-BR' in entry[1]),
  ),
);

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
    const domains = { ...PUBLIC_DOMAIN_MESSAGES, ...SCREEN_DOMAIN_MESSAGES, ...PAGE_TEXTS };
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
  it('find the lazily mounted screens too', () => {
    expect(Object.keys(PAGE_TEXTS)).toEqual(expect.arrayContaining(['dashboardMessages', 'messagesApiMessages']));
  });
});
