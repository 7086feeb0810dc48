/** The static permission table of spec 1 §6: a plain user holds nothing. */
export const ADMIN_PERMISSIONS = [
  'dashboard:view',
  'drawer-admin-items:view',
  'tickets-manager:showall',
  'tickets-manager:closeAll',
  'user-modal:editProfile',
  'user-modal:editQueues',
  'ticket-options:deleteTicket',
  'contacts-page:deleteContact',
  'connections-page:actionButtons',
  'connections-page:addConnection',
  'connections-page:editOrDeleteConnection',
] as const;

export type Permission = (typeof ADMIN_PERMISSIONS)[number];
export type Profile = 'admin' | 'user';

export const PERMISSION_TABLE: Record<Profile, readonly Permission[]> = {
  user: [],
  admin: ADMIN_PERMISSIONS,
};

export function can(profile: Profile, permission: Permission): boolean {
  return PERMISSION_TABLE[profile].includes(permission);
}

/** The per-user flags that widen what a plain user may see (spec 1 §6). */
export interface AccessFlags {
  profile: Profile;
  super: boolean;
  showDashboard: 'enabled' | 'disabled';
  allowRealTime: 'enabled' | 'disabled';
  allowConnections: 'enabled' | 'disabled';
}

/** Management menu group: admins, or users with showDashboard or allowRealTime. */
export function canSeeManagement(u: AccessFlags): boolean {
  return u.profile === 'admin' || u.showDashboard === 'enabled' || u.allowRealTime === 'enabled';
}

/** Administration block and connection actions: admins, or users with allowConnections. */
export function canSeeAdministration(u: AccessFlags): boolean {
  return u.profile === 'admin' || u.allowConnections === 'enabled';
}
