/** Profile from the avatar menu opens the user's own user dialog (pages/profile). */
export { OwnProfileDialog as ProfileDialog } from '../pages/profile/ProfileDialog';
