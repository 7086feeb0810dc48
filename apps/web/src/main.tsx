import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import './i18n';
import { SessionProvider } from './api/session';
import { OfflineBanner } from './components/OfflineBanner';
import { ToastHost } from './components/ToastHost';
import { AppThemeProvider } from './layout/theme';
import { AppRoutes } from './routes';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: { refetchOnWindowFocus: false, retry: 1 },
  },
});

const root = document.getElementById('root');
if (!root) throw new Error('#root missing');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AppThemeProvider>
          <SessionProvider>
            <AppRoutes />
            <ToastHost />
            <OfflineBanner />
          </SessionProvider>
        </AppThemeProvider>
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
