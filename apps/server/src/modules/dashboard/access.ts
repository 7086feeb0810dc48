import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import { AppError } from '../../http/errors.js';

type Flag = 'showDashboard' | 'allowRealTime';

/**
 * Management views (spec 1 §6, 2 §6): admins and the super user always; a plain user
 * with the view's flag: `showDashboard` (dashboard, reports), `allowRealTime` (/moments). Else 403.
 */
export async function assertManagementAccess(db: DbOrTx, by: AuthUser, flag: Flag): Promise<void> {
  if (by.profile === 'admin' || by.super) return;
  const [row] = await db.select({ on: users[flag] }).from(users).where(eq(users.id, by.id));
  if (row?.on !== 'enabled') throw new AppError('ERR_NO_PERMISSION', 403);
}
