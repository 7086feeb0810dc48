import { Suspense, type ReactNode } from 'react';
import { Navigate, Outlet, Route, Routes, useLocation } from 'react-router';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useSession, useUser } from './api/session';
import { readStorage, STORAGE_KEYS } from './api/storage';
import { subscriptionState } from './api/subscription';
import { AdminOnly, ConnectionsAccess, PlanGate, SuperOnly, SuperOrTickets } from './components/guards';
import { NoPermission } from './components/NoPermission';
import { useColorMode } from './components/colorMode';
import { Landing } from './layout/Landing';
import { landingPath } from './layout/landingPath';
import { lazyPage } from './lazyPage';

// Each screen is its own chunk, fetched on first visit: /login downloads none of the others.
const AppShell = lazyPage(() => import('./layout/AppShell').then((m) => m.AppShell));
const OwnProfileDialog = lazyPage(() => import('./pages/profile/ProfileDialog').then((m) => m.OwnProfileDialog));
const TicketNotifications = lazyPage(() => import('./pages/tickets/list/useTicketNotifications').then((m) => m.TicketNotifications));
const UnreadTabTitle = lazyPage(() => import('./pages/tickets/list/UnreadTabTitle').then((m) => m.UnreadTabTitle));
const AllConnectionsPage = lazyPage(() => import('./pages/allConnections/AllConnectionsPage').then((m) => m.AllConnectionsPage));
const ConnectionsPage = lazyPage(() => import('./pages/connections/ConnectionsPage').then((m) => m.ConnectionsPage));
const DashboardPage = lazyPage(() => import('./pages/dashboard/DashboardPage').then((m) => m.DashboardPage));
const MomentsPage = lazyPage(() => import('./pages/moments/MomentsPage').then((m) => m.MomentsPage));
const ReportsPage = lazyPage(() => import('./pages/reports/ReportsPage').then((m) => m.ReportsPage));
const FinanceiroPage = lazyPage(() => import('./pages/financeiro/FinanceiroPage').then((m) => m.FinanceiroPage));
const FinanceiroAbertoPage = lazyPage(() => import('./pages/financeiro-aberto/FinanceiroAbertoPage').then((m) => m.FinanceiroAbertoPage));
const LoginPage = lazyPage(() => import('./pages/login/LoginPage').then((m) => m.LoginPage));
const SignupPage = lazyPage(() => import('./pages/signup/SignupPage').then((m) => m.SignupPage));
const TicketsPage = lazyPage(() => import('./pages/tickets/TicketsPage').then((m) => m.TicketsPage));
const UsersPage = lazyPage(() => import('./pages/users/UsersPage').then((m) => m.UsersPage));
const QueuesPage = lazyPage(() => import('./pages/queues/QueuesPage').then((m) => m.QueuesPage));
const FilesPage = lazyPage(() => import('./pages/files/FilesPage').then((m) => m.FilesPage));
const QueueIntegrationsPage = lazyPage(() => import('./pages/queue-integrations/QueueIntegrationsPage').then((m) => m.QueueIntegrationsPage));
const SettingsPage = lazyPage(() => import('./pages/settings/SettingsPage').then((m) => m.SettingsPage));
const AnnouncementsPage = lazyPage(() => import('./pages/announcements/AnnouncementsPage').then((m) => m.AnnouncementsPage));
const HelpsPage = lazyPage(() => import('./pages/helps/HelpsPage').then((m) => m.HelpsPage));
const MessagesApiPage = lazyPage(() => import('./pages/messages-api/MessagesApiPage').then((m) => m.MessagesApiPage));
const ContactsPage = lazyPage(() => import('./pages/contacts/ContactsPage').then((m) => m.ContactsPage));
const ContactsImportPage = lazyPage(() => import('./pages/contacts/ContactsImportPage').then((m) => m.ContactsImportPage));
const CompaniesPage = lazyPage(() => import('./pages/companies/CompaniesPage').then((m) => m.CompaniesPage));
const TagsPage = lazyPage(() => import('./pages/tags/TagsPage').then((m) => m.TagsPage));
const PromptsPage = lazyPage(() => import('./pages/prompts/PromptsPage').then((m) => m.PromptsPage));
const QuickMessagesPage = lazyPage(() => import('./pages/quick-messages/QuickMessagesPage').then((m) => m.QuickMessagesPage));
const TodoListPage = lazyPage(() => import('./pages/todolist/TodoListPage').then((m) => m.TodoListPage));
const KanbanPage = lazyPage(() => import('./pages/kanban/KanbanPage').then((m) => m.KanbanPage));
const ChatsPage = lazyPage(() => import('./pages/chats/ChatsPage').then((m) => m.ChatsPage));
const WebhooksPage = lazyPage(() => import('./pages/webhooks/WebhooksPage').then((m) => m.WebhooksPage));
const SchedulesPage = lazyPage(() => import('./pages/schedules/SchedulesPage').then((m) => m.SchedulesPage));
const CampaignsPage = lazyPage(() => import('./pages/campaigns/CampaignsPage').then((m) => m.CampaignsPage));
const CampaignsConfigPage = lazyPage(() => import('./pages/campaigns/CampaignsConfigPage').then((m) => m.CampaignsConfigPage));
const CampaignReportPage = lazyPage(() => import('./pages/campaigns/CampaignReportPage').then((m) => m.CampaignReportPage));
const ContactListsPage = lazyPage(() => import('./pages/contact-lists/ContactListsPage').then((m) => m.ContactListsPage));
const ContactListItemsPage = lazyPage(() => import('./pages/contact-lists/ContactListItemsPage').then((m) => m.ContactListItemsPage));

function FullScreenLoader() {
  return (
    <Box sx={{ height: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <CircularProgress />
    </Box>
  );
}

/** Where a company past its due date stays until it pays. */
const EXPIRED_PATH = '/financeiro-aberto';

/**
 * Private routes: an unauthenticated visitor goes to /login; a company past its due date stays on
 * /financeiro-aberto (the API answers 402 elsewhere until it pays, docs/billing.md).
 */
function RequireAuth() {
  const { user, loading } = useSession();
  const { pathname } = useLocation();
  if (loading) return <FullScreenLoader />;
  if (!user) return <Navigate to="/login" replace />;
  if (pathname !== EXPIRED_PATH && subscriptionState(user.company.id, user.company.dueDate).kind === 'expired') {
    return <Navigate to={EXPIRED_PATH} replace />;
  }
  return <Outlet />;
}

/** Public routes: an authenticated visitor goes to their landing screen. */
function PublicOnly() {
  const { user, loading } = useSession();
  if (loading) return <FullScreenLoader />;
  if (user) return <Navigate to={landingPath(user)} replace />;
  return <Outlet />;
}

/** /signup exists only while the public setting userCreation is 'enabled'. */
function SignupRoute() {
  const { branding } = useColorMode();
  if (branding.userCreationLoading) return <FullScreenLoader />;
  if (branding.userCreation !== 'enabled') return <Navigate to="/login" replace />;
  return <SignupPage />;
}

/** /moments is blocked for profile user when allowRealTime is disabled (spec 2 §2). */
function MomentsRoute() {
  const user = useUser();
  if (user.profile === 'user' && user.allowRealTime !== 'enabled') return <NoPermission />;
  return <MomentsPage />;
}

/** The shell with what it shows from the screens: the profile dialog, new-message notifications and the tab title's unread count. */
function LoggedInShell() {
  return (
    <>
      <AppShell profileDialog={OwnProfileDialog} />
      <TicketNotifications />
      <UnreadTabTitle />
    </>
  );
}

const admin = (node: ReactNode) => <AdminOnly>{node}</AdminOnly>;

export function AppRoutes() {
  // Spec 1 §2: the campaign routes exist only when the browser has the cshow flag.
  const campaignsEnabled = readStorage(STORAGE_KEYS.campaignsFlag) !== null;
  return (
    <Suspense fallback={<FullScreenLoader />}>
      <Routes>
        <Route element={<PublicOnly />}>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/signup" element={<SignupRoute />} />
        </Route>
        <Route element={<RequireAuth />}>
          <Route element={<LoggedInShell />}>
            <Route index element={<DashboardPage />} />
            <Route path="/tickets/:ticketId?" element={<TicketsPage />} />
            <Route path="/reports" element={<ReportsPage />} />
            <Route path="/moments" element={<MomentsRoute />} />
            <Route path="/quick-messages" element={<QuickMessagesPage />} />
            <Route path="/todolist" element={<TodoListPage />} />
            <Route path="/schedules" element={<PlanGate flag="useSchedules"><SchedulesPage /></PlanGate>} />
            <Route path="/tags" element={<TagsPage kanban={0} />} />
            <Route path="/contacts" element={<ContactsPage />} />
            <Route path="/contacts/import" element={<ContactsImportPage />} />
            <Route path="/helps" element={<HelpsPage />} />
            <Route path="/users" element={admin(<UsersPage />)} />
            <Route path="/messages-api" element={<PlanGate flag="useExternalApi"><MessagesApiPage /></PlanGate>} />
            <Route path="/settings" element={<SettingsPage />} />
            <Route path="/webhooks" element={admin(<WebhooksPage />)} />
            <Route path="/queues" element={admin(<QueuesPage />)} />
            <Route path="/queue-integration" element={<PlanGate flag="useIntegrations">{admin(<QueueIntegrationsPage />)}</PlanGate>} />
            <Route path="/announcements" element={<SuperOnly><AnnouncementsPage /></SuperOnly>} />
            <Route path="/chats/:id?" element={<PlanGate flag="useInternalChat"><ChatsPage /></PlanGate>} />
            <Route path="/files" element={admin(<FilesPage />)} />
            <Route path="/Kanban" element={<PlanGate flag="useKanban"><KanbanPage /></PlanGate>} />
            <Route path="/TagsKanban" element={<PlanGate flag="useKanban"><TagsPage kanban={1} /></PlanGate>} />
            <Route path="/prompts" element={<PlanGate flag="useOpenAi">{admin(<PromptsPage />)}</PlanGate>} />
            <Route path="/connections" element={<ConnectionsAccess><ConnectionsPage /></ConnectionsAccess>} />
            <Route path="/allConnections" element={<SuperOrTickets><AllConnectionsPage /></SuperOrTickets>} />
            <Route path="/financeiro" element={admin(<FinanceiroPage />)} />
            <Route path="/financeiro-aberto" element={<FinanceiroAbertoPage />} />
            <Route path="/companies" element={<SuperOnly><CompaniesPage /></SuperOnly>} />
            {campaignsEnabled && (
              <>
                <Route path="/campaigns" element={<PlanGate flag="useCampaigns">{admin(<CampaignsPage />)}</PlanGate>} />
                <Route path="/contact-lists" element={<PlanGate flag="useCampaigns">{admin(<ContactListsPage />)}</PlanGate>} />
                <Route path="/campaigns-config" element={<PlanGate flag="useCampaigns">{admin(<CampaignsConfigPage />)}</PlanGate>} />
                <Route
                  path="/contact-lists/:contactListId/contacts"
                  element={<PlanGate flag="useCampaigns">{admin(<ContactListItemsPage />)}</PlanGate>}
                />
                <Route
                  path="/campaign/:campaignId/report"
                  element={<PlanGate flag="useCampaigns">{admin(<CampaignReportPage />)}</PlanGate>}
                />
              </>
            )}
          </Route>
        </Route>
        <Route path="*" element={<Landing />} />
      </Routes>
    </Suspense>
  );
}
