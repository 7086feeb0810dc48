import type { SessionUser } from '@balcao/contracts';
import { UserDialog } from '../users/UserDialog';
import { TwoFactorSection } from './TwoFactorSection';

/** Profile (avatar menu): the user's own dialog; saving reloads the page (spec 3 §2). Two-factor login has its own section. */
export function OwnProfileDialog({ user, open, onClose }: { user: SessionUser; open: boolean; onClose: () => void }) {
  if (!open) return null;
  return <UserDialog open userId={user.id} onClose={onClose} asProfile profileExtra={<TwoFactorSection />} />;
}
