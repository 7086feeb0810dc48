import { mountTexts } from '../../i18n/mount';

/** Attendance panel (spec 2 §2 "Attendance panel"), under `moments.`. */
export const momentsMessages = mountTexts('moments', {
  'pt-BR': {
    status: { open: 'Em atendimento', pending: 'Aguardando' },
    empty: 'Nenhum atendimento',
    noUser: 'Sem atendente',
    open: 'Acessar ticket',
  },
  en: {
    status: { open: 'In service', pending: 'Waiting' },
    empty: 'No tickets',
    noUser: 'No attendant',
    open: 'Open ticket',
  },
  es: {
    status: { open: 'En atención', pending: 'En espera' },
    empty: 'Ninguna atención',
    noUser: 'Sin agente',
    open: 'Abrir ticket',
  },
  tr: {
    status: { open: 'Hizmette', pending: 'Bekleyen' },
    empty: 'Talep yok',
    noUser: 'Temsilci yok',
    open: 'Talebi aç',
  },
});
