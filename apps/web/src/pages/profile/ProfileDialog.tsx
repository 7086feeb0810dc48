import type { SessionUser } from '@balcao/contracts';
import { UserDialog } from '../users/UserDialog';

/** Profile (avatar menu): the user's own dialog; saving reloads the page (spec 3 §2). */
export function OwnProfileDialog({ user, open, onClose }: { user: SessionUser; open: boolean; onClose: () => void }) {
  if (!open) return null;
  return <UserDialog open userId={user.id} onClose={onClose} asProfile />;
}
