import { defineMessages } from '../../i18n/domain';

/** /allConnections: the super user's overview of every company's connections. */
export const allConnectionsMessages = defineMessages({
  'pt-BR': {
    title: 'Gerenciar conexões',
    client: 'Cliente',
    connected: 'Conectadas',
    disconnected: 'Desconectadas',
    total: 'Total',
    totals: 'Total geral',
    actions: 'Ações',
    edit: 'Ver conexões',
    dialogTitle: 'Conexões de: {{name}}',
  },
  en: {
    title: 'Manage connections',
    client: 'Client',
    connected: 'Connected',
    disconnected: 'Disconnected',
    total: 'Total',
    totals: 'Grand total',
    actions: 'Actions',
    edit: 'View connections',
    dialogTitle: 'Connections of: {{name}}',
  },
  es: {
    title: 'Administrar conexiones',
    client: 'Cliente',
    connected: 'Conectadas',
    disconnected: 'Desconectadas',
    total: 'Total',
    totals: 'Total general',
    actions: 'Acciones',
    edit: 'Ver conexiones',
    dialogTitle: 'Conexiones de: {{name}}',
  },
  tr: {
    title: 'Bağlantıları yönet',
    client: 'Müşteri',
    connected: 'Bağlı',
    disconnected: 'Bağlı değil',
    total: 'Toplam',
    totals: 'Genel toplam',
    actions: 'İşlemler',
    edit: 'Bağlantıları gör',
    dialogTitle: '{{name}} bağlantıları',
  },
});
