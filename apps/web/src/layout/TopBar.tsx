import { Suspense, useState, type ComponentType } from 'react';
import { useNavigate } from 'react-router';
import { Trans, useTranslation } from 'react-i18next';
import AppBar from '@mui/material/AppBar';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import MenuIcon from '@mui/icons-material/Menu';
import CachedIcon from '@mui/icons-material/Cached';
import NotificationsNoneIcon from '@mui/icons-material/NotificationsNone';
import type { SessionUser } from '@balcao/contracts';
import { useSession } from '../api/session';
import { avatarUrl } from '../api/users';
import { formatDate } from '../components/format';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { ThemeToggle } from '../components/ThemeToggle';
import { AnnouncementsBell } from './AnnouncementsBell';
import { ChatsBell } from './ChatsBell';
import { EmptyBell } from './EmptyBell';
import { NewVersionButton } from './NewVersionButton';
import { VolumeControl } from './VolumeControl';

/** The avatar menu's profile dialog: a screen's dialog, so the routes hand it down (layout/ imports no page). */
export type ProfileDialog = ComponentType<{ user: SessionUser; open: boolean; onClose: () => void }>;

interface TopBarProps {
  user: SessionUser;
  onToggleMenu: () => void;
  profileDialog: ProfileDialog;
}

export function TopBar({ user, onToggleMenu, profileDialog: ProfileDialog }: TopBarProps) {
  const { t } = useTranslation();
  const { logout } = useSession();
  const navigate = useNavigate();
  const [accountAnchor, setAccountAnchor] = useState<HTMLElement | null>(null);
  const [profileOpen, setProfileOpen] = useState(false);
  const avatar = avatarUrl(user);

  return (
    <AppBar position="sticky" elevation={1} color="primary" enableColorOnDark>
      {/* Phones: tighter, and without the refresh button (the browser has one), so the account menu stays on screen. */}
      <Toolbar variant="dense" sx={{ gap: { xs: 0, sm: 0.5 }, px: { xs: 0.5, sm: 2 }, minHeight: 56 }}>
        <Tooltip title={t('mainDrawer.toggle')}>
          <IconButton edge="start" color="inherit" aria-label={t('mainDrawer.toggle')} data-testid="menu-toggle" onClick={onToggleMenu}>
            <MenuIcon />
          </IconButton>
        </Tooltip>
        <Typography variant="body1" noWrap sx={{ flex: 1, minWidth: 0 }} data-testid="greeting">
          <Trans
            i18nKey="topBar.greeting"
            values={{ name: user.name, company: user.company.name }}
            components={{ b: <b /> }}
          />
          {user.profile === 'admin' && user.company.dueDate && (
            <Box component="span" sx={{ ml: 1, opacity: 0.9 }} data-testid="due-date">
              ({t('topBar.activeUntil', { date: formatDate(user.company.dueDate) })})
            </Box>
          )}
        </Typography>
        <NewVersionButton />
        <ThemeToggle />
        <LanguageSwitch />
        <VolumeControl />
        <Tooltip title={t('topBar.refresh')}>
          <IconButton
            color="inherit"
            aria-label={t('topBar.refresh')}
            data-testid="refresh"
            onClick={() => window.location.reload()}
            sx={{ display: { xs: 'none', sm: 'inline-flex' } }}
          >
            <CachedIcon />
          </IconButton>
        </Tooltip>
        <EmptyBell icon={<NotificationsNoneIcon />} label={t('topBar.notifications')} emptyText={t('topBar.noNotifications')} testId="notifications-bell" />
        <AnnouncementsBell />
        {user.company.plan?.useInternalChat && <ChatsBell />}
        <Tooltip title={t('topBar.account')}>
          <IconButton color="inherit" aria-label={t('topBar.account')} data-testid="account-menu" onClick={(e) => setAccountAnchor(e.currentTarget)}>
            <Avatar src={avatar} sx={{ width: 32, height: 32, bgcolor: 'primary.dark', fontSize: 16 }}>
              {user.name.charAt(0).toUpperCase()}
            </Avatar>
          </IconButton>
        </Tooltip>
        <Menu
          anchorEl={accountAnchor}
          open={accountAnchor !== null}
          onClose={() => setAccountAnchor(null)}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        >
          <MenuItem
            data-testid="account-profile"
            onClick={() => {
              setAccountAnchor(null);
              setProfileOpen(true);
            }}
          >
            {t('topBar.profile')}
          </MenuItem>
          <MenuItem
            data-testid="account-logout"
            onClick={() => {
              setAccountAnchor(null);
              void logout().then(() => navigate('/login', { replace: true }));
            }}
          >
            {t('topBar.logout')}
          </MenuItem>
        </Menu>
      </Toolbar>
      {profileOpen && (
        <Suspense fallback={null}>
          <ProfileDialog user={user} open onClose={() => setProfileOpen(false)} />
        </Suspense>
      )}
    </AppBar>
  );
}
