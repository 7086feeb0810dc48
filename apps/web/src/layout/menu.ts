import { canSeeAdministration, canSeeManagement, type AccessFlags, type PlanFlag } from '@balcao/contracts';

export type MenuItemId =
  | 'tickets'
  | 'dashboard'
  | 'reports'
  | 'moments'
  | 'quickMessages'
  | 'kanban'
  | 'contacts'
  | 'schedules'
  | 'tags'
  | 'chats'
  | 'helps'
  | 'campaignsList'
  | 'contactLists'
  | 'campaignsConfig'
  | 'announcements'
  | 'messagesAPI'
  | 'users'
  | 'queues'
  | 'prompts'
  | 'queueIntegration'
  | 'connections'
  | 'allConnections'
  | 'files'
  | 'financeiro'
  | 'settings'
  | 'webhooks'
  | 'companies';

export interface MenuLink {
  kind: 'link';
  id: MenuItemId;
  path: string;
}
export interface MenuGroup {
  kind: 'group';
  id: 'management' | 'campaigns';
  children: MenuLink[];
}
export type MenuNode = MenuLink | MenuGroup;

export interface MenuModel {
  main: MenuNode[];
  /** null when the user may not see the administration block. */
  administration: MenuNode[] | null;
}

export interface MenuInput {
  user: AccessFlags;
  /** The company's plan flags; a missing plan grants no plan feature. */
  plan: Partial<Record<PlanFlag, boolean>> | null;
  helpsCount: number;
}

const link = (id: MenuItemId, path: string): MenuLink => ({ kind: 'link', id, path });

/** Spec 1 §2 "Side menu": which entries a user sees, in order. */
export function buildMenu({ user, plan, helpsCount }: MenuInput): MenuModel {
  const has = (flag: PlanFlag) => plan?.[flag] === true;
  const main: MenuNode[] = [link('tickets', '/tickets')];
  if (canSeeManagement(user)) {
    main.push({
      kind: 'group',
      id: 'management',
      children: [link('dashboard', '/'), link('reports', '/reports'), link('moments', '/moments')],
    });
  }
  main.push(link('quickMessages', '/quick-messages'));
  if (has('useKanban')) main.push(link('kanban', '/Kanban'));
  main.push(link('contacts', '/contacts'));
  if (has('useSchedules')) main.push(link('schedules', '/schedules'));
  main.push(link('tags', '/tags'));
  if (has('useInternalChat')) main.push(link('chats', '/chats'));
  if (helpsCount > 0) main.push(link('helps', '/helps'));

  if (!canSeeAdministration(user)) return { main, administration: null };

  const admin: MenuNode[] = [];
  if (has('useCampaigns')) {
    admin.push({
      kind: 'group',
      id: 'campaigns',
      children: [
        link('campaignsList', '/campaigns'),
        link('contactLists', '/contact-lists'),
        link('campaignsConfig', '/campaigns-config'),
      ],
    });
  }
  if (user.super) admin.push(link('announcements', '/announcements'));
  if (has('useExternalApi')) admin.push(link('messagesAPI', '/messages-api'));
  admin.push(link('users', '/users'), link('queues', '/queues'));
  if (has('useOpenAi')) admin.push(link('prompts', '/prompts'));
  if (has('useIntegrations')) admin.push(link('queueIntegration', '/queue-integration'));
  admin.push(link('connections', '/connections'));
  if (user.super) admin.push(link('allConnections', '/allConnections'));
  admin.push(link('files', '/files'), link('financeiro', '/financeiro'), link('settings', '/settings'));
  // Outbound webhooks (beyond the spec, docs/webhooks.md): the company's admins only, not allowConnections users.
  if (user.profile === 'admin' || user.super) admin.push(link('webhooks', '/webhooks'));
  if (user.super) admin.push(link('companies', '/companies'));
  return { main, administration: admin };
}

/** Every link of a menu model, groups flattened. */
export function menuPaths(model: MenuModel): string[] {
  const nodes = [...model.main, ...(model.administration ?? [])];
  return nodes.flatMap((n) => (n.kind === 'link' ? [n.path] : n.children.map((c) => c.path)));
}

/** The tickets entry is highlighted on any path starting with /tickets; the others on their own path. */
export function isMenuPathActive(path: string, pathname: string): boolean {
  const here = pathname.toLowerCase();
  const target = path.toLowerCase();
  if (target === '/tickets') return here.startsWith('/tickets');
  if (target === '/') return here === '/';
  return here === target || here.startsWith(`${target}/`);
}

const ALERT_STATUSES = new Set(['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING']);

/** The connections entry shows an alert when any connection needs attention. */
export function connectionsNeedAttention(connections: ReadonlyArray<{ status?: string | null }>): boolean {
  return connections.some((c) => typeof c.status === 'string' && ALERT_STATUSES.has(c.status));
}
