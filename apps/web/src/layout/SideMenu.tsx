import { useState, type ReactElement } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import Badge from '@mui/material/Badge';
import Collapse from '@mui/material/Collapse';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Tooltip from '@mui/material/Tooltip';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import WhatsAppIcon from '@mui/icons-material/WhatsApp';
import DashboardOutlinedIcon from '@mui/icons-material/DashboardOutlined';
import DashboardIcon from '@mui/icons-material/Dashboard';
import AssessmentOutlinedIcon from '@mui/icons-material/AssessmentOutlined';
import GridOnIcon from '@mui/icons-material/GridOn';
import FlashOnIcon from '@mui/icons-material/FlashOn';
import ViewKanbanOutlinedIcon from '@mui/icons-material/ViewKanbanOutlined';
import ContactPhoneOutlinedIcon from '@mui/icons-material/ContactPhoneOutlined';
import EventIcon from '@mui/icons-material/Event';
import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import ForumIcon from '@mui/icons-material/Forum';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import EventAvailableIcon from '@mui/icons-material/EventAvailable';
import ListIcon from '@mui/icons-material/List';
import PeopleIcon from '@mui/icons-material/People';
import SettingsOutlinedIcon from '@mui/icons-material/SettingsOutlined';
import AnnouncementIcon from '@mui/icons-material/Announcement';
import CodeRoundedIcon from '@mui/icons-material/CodeRounded';
import PeopleAltOutlinedIcon from '@mui/icons-material/PeopleAltOutlined';
import AccountTreeOutlinedIcon from '@mui/icons-material/AccountTreeOutlined';
import AllInclusiveIcon from '@mui/icons-material/AllInclusive';
import DeviceHubOutlinedIcon from '@mui/icons-material/DeviceHubOutlined';
import SyncAltIcon from '@mui/icons-material/SyncAlt';
import PhonelinkSetupIcon from '@mui/icons-material/PhonelinkSetup';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import LocalAtmIcon from '@mui/icons-material/LocalAtm';
import BusinessIcon from '@mui/icons-material/Business';
import WebhookIcon from '@mui/icons-material/Webhook';
import { APP_VERSION } from '@balcao/contracts';
import Typography from '@mui/material/Typography';
import Box from '@mui/material/Box';
import { isMenuPathActive, type MenuItemId, type MenuLink, type MenuModel, type MenuNode } from './menu';

const ICONS: Record<MenuItemId, ReactElement> = {
  tickets: <WhatsAppIcon />,
  dashboard: <DashboardOutlinedIcon />,
  reports: <AssessmentOutlinedIcon />,
  moments: <GridOnIcon />,
  quickMessages: <FlashOnIcon />,
  kanban: <ViewKanbanOutlinedIcon />,
  contacts: <ContactPhoneOutlinedIcon />,
  schedules: <EventIcon />,
  tags: <LocalOfferIcon />,
  chats: <ForumIcon />,
  helps: <HelpOutlineIcon />,
  campaignsList: <ListIcon />,
  contactLists: <PeopleIcon />,
  campaignsConfig: <SettingsOutlinedIcon />,
  announcements: <AnnouncementIcon />,
  messagesAPI: <CodeRoundedIcon />,
  users: <PeopleAltOutlinedIcon />,
  queues: <AccountTreeOutlinedIcon />,
  prompts: <AllInclusiveIcon />,
  queueIntegration: <DeviceHubOutlinedIcon />,
  connections: <SyncAltIcon />,
  allConnections: <PhonelinkSetupIcon />,
  files: <AttachFileIcon />,
  financeiro: <LocalAtmIcon />,
  settings: <SettingsOutlinedIcon />,
  webhooks: <WebhookIcon />,
  companies: <BusinessIcon />,
};

const GROUP_ICONS = { management: <DashboardIcon />, campaigns: <EventAvailableIcon /> } as const;

interface Props {
  model: MenuModel;
  open: boolean;
  connectionsAlert: boolean;
  /** The user has unread internal chat messages: a dot on the chat entry (spec 1 §2). */
  chatsUnread: boolean;
  onNavigate?: () => void;
}

export function SideMenu({ model, open, connectionsAlert, chatsUnread, onNavigate }: Props) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [expanded, setExpanded] = useState<Record<string, boolean>>({ management: true, campaigns: false });

  const renderLink = (item: MenuLink, nested = false) => {
    const label = t(`mainDrawer.listItems.${item.id}`);
    let icon = ICONS[item.id];
    if (item.id === 'connections' && connectionsAlert) {
      icon = (
        <Badge color="error" variant="dot" overlap="rectangular" data-testid="connections-alert" title={t('mainDrawer.listItems.connectionsAlert')}>
          {icon}
        </Badge>
      );
    }
    if (item.id === 'chats' && chatsUnread) {
      icon = (
        <Badge color="error" variant="dot" overlap="rectangular" data-testid="chats-unread-dot" title={t('topBar.chats')}>
          {icon}
        </Badge>
      );
    }
    return (
      <Tooltip key={item.path} title={open ? '' : label} placement="right">
        <ListItemButton
          component={RouterLink}
          to={item.path}
          data-testid={`menu-${item.path}`}
          selected={isMenuPathActive(item.path, pathname)}
          onClick={onNavigate}
          sx={{ pl: nested && open ? 4 : 2.5, minHeight: 44 }}
        >
          <ListItemIcon sx={{ minWidth: 40 }}>{icon}</ListItemIcon>
          <ListItemText primary={label} slotProps={{ primary: { noWrap: true } }} sx={{ opacity: open ? 1 : 0 }} />
        </ListItemButton>
      </Tooltip>
    );
  };

  const renderNode = (node: MenuNode) => {
    if (node.kind === 'link') return renderLink(node);
    const label = t(`mainDrawer.listItems.${node.id}`);
    const isOpen = expanded[node.id] ?? false;
    return (
      <Box key={node.id}>
        <Tooltip title={open ? '' : label} placement="right">
          <ListItemButton
            data-testid={`menu-group-${node.id}`}
            onClick={() => setExpanded((e) => ({ ...e, [node.id]: !isOpen }))}
            sx={{ pl: 2.5, minHeight: 44 }}
          >
            <ListItemIcon sx={{ minWidth: 40 }}>{GROUP_ICONS[node.id]}</ListItemIcon>
            <ListItemText primary={label} slotProps={{ primary: { noWrap: true } }} sx={{ opacity: open ? 1 : 0 }} />
            {open && (isOpen ? <ExpandLess /> : <ExpandMore />)}
          </ListItemButton>
        </Tooltip>
        <Collapse in={isOpen} timeout="auto">
          {/* The items are links, not <li>: a div keeps the list semantics valid (axe "list"). */}
          <List disablePadding component="div">
            {node.children.map((c) => renderLink(c, true))}
          </List>
        </Collapse>
      </Box>
    );
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', flex: 1, overflowX: 'hidden', overflowY: 'auto' }}>
      <List component="nav" data-testid="side-menu" sx={{ flex: 1 }}>
        {model.main.map(renderNode)}
        {model.administration && (
          <Box data-testid="menu-section-administration">
            <Divider sx={{ my: 1 }} />
            {open && (
              <ListSubheader sx={{ bgcolor: 'transparent', lineHeight: '32px' }}>
                {t('mainDrawer.listItems.administration')}
              </ListSubheader>
            )}
            {model.administration.map(renderNode)}
          </Box>
        )}
      </List>
      <Divider />
      <Typography variant="caption" color="text.secondary" sx={{ p: 1.5, textAlign: 'center' }} data-testid="app-version" noWrap>
        {open ? t('mainDrawer.version', { version: APP_VERSION }) : APP_VERSION}
      </Typography>
    </Box>
  );
}
