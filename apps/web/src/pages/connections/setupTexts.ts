import { defineMessages } from '../../i18n/domain';

/** Texts that keep a new company from getting stuck: connections without queues, Meta not configured. */
export const connectionSetupMessages = defineMessages({
  'pt-BR': {
    noQueue: {
      short: 'Sem fila',
      table: 'Conexão sem fila: seus atendimentos só aparecem para administradores e para quem vê todos os atendimentos.',
      dialog:
        'Sem fila, os atendimentos desta conexão só aparecem para administradores e para usuários com "Ver todos os atendimentos". Escolha ao menos uma fila para que os atendentes dela os vejam.',
      ticket: 'Sem fila: só administradores e quem vê todos os atendimentos veem este atendimento',
    },
    meta: {
      notConfigured: 'Este servidor não está configurado para Facebook e Instagram (FACEBOOK_APP_ID e FACEBOOK_APP_SECRET).',
      queues: 'Filas das novas páginas',
      queuesHelp: 'Os atendimentos das páginas adicionadas entram nestas filas.',
      continue: 'Continuar com o Facebook',
    },
  },
  en: {
    noQueue: {
      short: 'No queue',
      table: 'Connection without a queue: its tickets only reach admins and users who see all tickets.',
      dialog:
        'Without a queue, this connection\'s tickets only reach admins and users with "See all tickets". Choose at least one queue so its attendants see them.',
      ticket: 'No queue: only admins and users who see all tickets see this ticket',
    },
    meta: {
      notConfigured: 'This server is not set up for Facebook and Instagram (FACEBOOK_APP_ID and FACEBOOK_APP_SECRET).',
      queues: 'Queues of the new Pages',
      queuesHelp: 'Tickets from the added Pages go to these queues.',
      continue: 'Continue with Facebook',
    },
  },
  es: {
    noQueue: {
      short: 'Sin cola',
      table: 'Conexión sin cola: sus atenciones solo llegan a los administradores y a quienes ven todas las atenciones.',
      dialog:
        'Sin cola, las atenciones de esta conexión solo llegan a los administradores y a los usuarios con "Ver todas las atenciones". Elija al menos una cola para que sus agentes las vean.',
      ticket: 'Sin cola: solo los administradores y quienes ven todas las atenciones ven esta atención',
    },
    meta: {
      notConfigured: 'Este servidor no está configurado para Facebook e Instagram (FACEBOOK_APP_ID y FACEBOOK_APP_SECRET).',
      queues: 'Colas de las nuevas páginas',
      queuesHelp: 'Las atenciones de las páginas agregadas entran en estas colas.',
      continue: 'Continuar con Facebook',
    },
  },
  tr: {
    noQueue: {
      short: 'Kuyruk yok',
      table: 'Kuyruksuz bağlantı: talepleri yalnızca yöneticilere ve tüm talepleri görenlere ulaşır.',
      dialog:
        'Kuyruk olmadan bu bağlantının talepleri yalnızca yöneticilere ve "Tüm talepleri gör" yetkisi olan kullanıcılara ulaşır. Temsilcilerin görmesi için en az bir kuyruk seçin.',
      ticket: 'Kuyruk yok: bu talebi yalnızca yöneticiler ve tüm talepleri görenler görür',
    },
    meta: {
      notConfigured: 'Bu sunucu Facebook ve Instagram için yapılandırılmamış (FACEBOOK_APP_ID ve FACEBOOK_APP_SECRET).',
      queues: 'Yeni sayfaların kuyrukları',
      queuesHelp: 'Eklenen sayfaların talepleri bu kuyruklara girer.',
      continue: 'Facebook ile devam et',
    },
  },
});
