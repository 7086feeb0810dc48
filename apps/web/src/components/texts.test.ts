import { describe, expect, it } from 'vitest';
import { uiMessages } from './texts';
import { companiesMessages } from '../pages/companies/texts';
import { queuesMessages } from '../pages/queues/texts';

describe('administration texts', () => {
  it('quote the spec strings in pt-BR', () => {
    const pt = uiMessages['pt-BR'];
    expect(pt.list.error).toBe('Não foi possível carregar a lista de registros');
    expect(pt.toasts.success).toBe('Operação realizada com sucesso');
    expect(pt.toasts.settingsSaved).toBe('Configurações salvas');
    expect(queuesMessages['pt-BR'].toasts.hoursHint).toBe('Clique em salvar para registrar as alterações');
    expect(companiesMessages['pt-BR'].toasts.saveFailed).toMatch(/^Não foi possível realizar a operação/);
  });
});
