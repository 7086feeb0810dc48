import { describe, expect, it } from 'vitest';
import { PLAN_FLAGS, type AccessFlags, type PlanFlag } from '@balcao/contracts';
import { buildMenu, connectionsNeedAttention, isMenuPathActive, menuPaths } from './menu';

const allFlags = Object.fromEntries(PLAN_FLAGS.map((f) => [f, true])) as Record<PlanFlag, boolean>;
const noFlags = Object.fromEntries(PLAN_FLAGS.map((f) => [f, false])) as Record<PlanFlag, boolean>;

const plainUser: AccessFlags = {
  profile: 'user',
  super: false,
  showDashboard: 'disabled',
  allowRealTime: 'disabled',
  allowConnections: 'disabled',
};
const admin: AccessFlags = { ...plainUser, profile: 'admin' };
const superUser: AccessFlags = { ...admin, super: true };

describe('buildMenu', () => {
  it('gives a plain user neither management nor administration', () => {
    const menu = buildMenu({ user: plainUser, plan: allFlags, helpsCount: 0 });
    expect(menu.administration).toBeNull();
    expect(menuPaths(menu)).toEqual([
      '/tickets',
      '/quick-messages',
      '/Kanban',
      '/contacts',
      '/schedules',
      '/tags',
      '/chats',
    ]);
  });

  it('shows management to users with showDashboard or allowRealTime', () => {
    for (const flags of [{ showDashboard: 'enabled' }, { allowRealTime: 'enabled' }] as const) {
      const menu = buildMenu({ user: { ...plainUser, ...flags }, plan: noFlags, helpsCount: 0 });
      expect(menuPaths(menu)).toEqual(['/tickets', '/', '/reports', '/moments', '/quick-messages', '/contacts', '/tags']);
      expect(menu.administration).toBeNull();
    }
  });

  it('shows the administration block to users with allowConnections', () => {
    const menu = buildMenu({ user: { ...plainUser, allowConnections: 'enabled' }, plan: noFlags, helpsCount: 0 });
    expect(menu.administration).not.toBeNull();
    expect(menuPaths(menu)).not.toContain('/');
    expect(menuPaths(menu)).toContain('/connections');
  });

  it('gives an admin the plan-gated entries only for the plan flags', () => {
    const without = menuPaths(buildMenu({ user: admin, plan: noFlags, helpsCount: 0 }));
    expect(without).toEqual([
      '/tickets',
      '/',
      '/reports',
      '/moments',
      '/quick-messages',
      '/contacts',
      '/tags',
      '/users',
      '/queues',
      '/connections',
      '/files',
      '/financeiro',
      '/settings',
      '/webhooks',
    ]);
    const withAll = menuPaths(buildMenu({ user: admin, plan: allFlags, helpsCount: 0 }));
    for (const p of ['/Kanban', '/schedules', '/chats', '/campaigns', '/contact-lists', '/campaigns-config', '/messages-api', '/prompts', '/queue-integration']) {
      expect(withAll).toContain(p);
    }
    for (const p of ['/announcements', '/allConnections', '/companies', '/helps']) {
      expect(withAll).not.toContain(p);
    }
  });

  it('treats a missing plan as no plan feature', () => {
    const paths = menuPaths(buildMenu({ user: admin, plan: null, helpsCount: 0 }));
    expect(paths).not.toContain('/Kanban');
    expect(paths).not.toContain('/campaigns');
  });

  it('adds the super-user entries in spec order', () => {
    const menu = buildMenu({ user: superUser, plan: allFlags, helpsCount: 2 });
    expect(menuPaths(menu)).toEqual([
      '/tickets',
      '/',
      '/reports',
      '/moments',
      '/quick-messages',
      '/Kanban',
      '/contacts',
      '/schedules',
      '/tags',
      '/chats',
      '/helps',
      '/campaigns',
      '/contact-lists',
      '/campaigns-config',
      '/announcements',
      '/messages-api',
      '/users',
      '/queues',
      '/prompts',
      '/queue-integration',
      '/connections',
      '/allConnections',
      '/files',
      '/financeiro',
      '/settings',
      '/webhooks',
      '/companies',
    ]);
  });

  it('shows helps only with at least one help item', () => {
    expect(menuPaths(buildMenu({ user: plainUser, plan: null, helpsCount: 0 }))).not.toContain('/helps');
    expect(menuPaths(buildMenu({ user: plainUser, plan: null, helpsCount: 1 }))).toContain('/helps');
  });
});

describe('isMenuPathActive', () => {
  it('highlights tickets on any /tickets path', () => {
    expect(isMenuPathActive('/tickets', '/tickets')).toBe(true);
    expect(isMenuPathActive('/tickets', '/tickets/0b1c-uuid')).toBe(true);
    expect(isMenuPathActive('/tickets', '/contacts')).toBe(false);
  });
  it('highlights the dashboard only on /', () => {
    expect(isMenuPathActive('/', '/')).toBe(true);
    expect(isMenuPathActive('/', '/users')).toBe(false);
  });
  it('matches other entries case-insensitively', () => {
    expect(isMenuPathActive('/Kanban', '/kanban')).toBe(true);
    expect(isMenuPathActive('/users', '/users')).toBe(true);
    expect(isMenuPathActive('/users', '/queues')).toBe(false);
  });
});

describe('connectionsNeedAttention', () => {
  it('alerts on qrcode, PAIRING, DISCONNECTED, TIMEOUT and OPENING', () => {
    for (const status of ['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING']) {
      expect(connectionsNeedAttention([{ status: 'CONNECTED' }, { status }])).toBe(true);
    }
  });
  it('is quiet when all are connected or there are none', () => {
    expect(connectionsNeedAttention([{ status: 'CONNECTED' }])).toBe(false);
    expect(connectionsNeedAttention([])).toBe(false);
  });
});
