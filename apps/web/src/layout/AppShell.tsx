import { Suspense, useMemo, useState } from 'react';
import { Outlet } from 'react-router';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import Toolbar from '@mui/material/Toolbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { canSeeAdministration } from '@balcao/contracts';
import i18n from '../i18n';
import { addScreenTexts } from '../i18n/domains';
import { useChatActivity, useChatsOverview } from '../api/chats';
import { useHelpsList } from '../api/helps';
import { useSession, useUser } from '../api/session';
import { connectionsNeedAttention } from './menu';
import { buildMenu } from './menu';
import { useConnectionsForAlert } from '../api/whatsapp';
import { Logo } from '../components/Logo';
import { LogoMark } from '../components/LogoMark';
import { SideMenu } from './SideMenu';
import { TopBar, type ProfileDialog } from './TopBar';

addScreenTexts(i18n);

const OPEN_WIDTH = 260;
const CLOSED_WIDTH = 64;

function PageLoader() {
  return (
    <Box data-testid="page-loading" sx={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <CircularProgress />
    </Box>
  );
}

/** The logged-in frame: drawer, top bar and the current screen. */
export function AppShell({ profileDialog }: { profileDialog: ProfileDialog }) {
  const user = useUser();
  const { socket } = useSession();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));
  const [open, setOpen] = useState(user.defaultMenu !== 'closed');
  const [mobileOpen, setMobileOpen] = useState(false);

  const helps = useHelpsList(true);
  const showAdmin = canSeeAdministration(user);
  const connections = useConnectionsForAlert(showAdmin, socket, user.companyId);
  const model = useMemo(
    () => buildMenu({ user, plan: user.company.plan, helpsCount: helps.data?.length ?? 0 }),
    [user, helps.data],
  );
  const alert = connectionsNeedAttention(connections.data ?? []);
  useChatActivity();
  const chats = useChatsOverview();

  const drawerContent = (expanded: boolean) => (
    <>
      <Toolbar sx={{ justifyContent: 'center', minHeight: 56, px: 1 }} variant="dense">
        {expanded ? <Logo maxHeight={40} /> : <LogoMark />}
      </Toolbar>
      <Divider />
      <SideMenu model={model} open={expanded} connectionsAlert={alert} chatsUnread={chats.unread > 0} onNavigate={narrow ? () => setMobileOpen(false) : undefined} />
    </>
  );

  const width = open ? OPEN_WIDTH : CLOSED_WIDTH;
  return (
    <Box sx={{ display: 'flex', height: '100vh', bgcolor: 'background.default' }}>
      {narrow ? (
        <Drawer
          variant="temporary"
          open={mobileOpen}
          onClose={() => setMobileOpen(false)}
          slotProps={{ paper: { sx: { width: OPEN_WIDTH } } }}
          data-testid="drawer"
        >
          {drawerContent(true)}
        </Drawer>
      ) : (
        <Drawer
          variant="permanent"
          data-testid="drawer"
          data-open={open}
          sx={{
            width,
            flexShrink: 0,
            transition: theme.transitions.create('width'),
            '& .MuiDrawer-paper': { width, overflowX: 'hidden', transition: theme.transitions.create('width') },
          }}
        >
          {drawerContent(open)}
        </Drawer>
      )}
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <TopBar user={user} profileDialog={profileDialog} onToggleMenu={() => (narrow ? setMobileOpen((o) => !o) : setOpen((o) => !o))} />
        <Box component="main" sx={{ flex: 1, overflow: 'auto', display: 'flex', flexDirection: 'column' }}>
          {/* The screen's chunk loads under the shell, which stays in place. */}
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </Box>
      </Box>
    </Box>
  );
}
