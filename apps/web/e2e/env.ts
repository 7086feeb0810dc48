/**
 * Ports and credentials of the product the e2e suite starts (see
 * playwright.config.ts). The ports can be moved with E2E_API_PORT /
 * E2E_WEB_PORT when something else already listens on the defaults.
 */
export const API_PORT = Number(process.env.E2E_API_PORT ?? 18080);
export const WEB_PORT = Number(process.env.E2E_WEB_PORT ?? 13000);
export const E2E_API_URL = `http://localhost:${API_PORT}`;
export const E2E_WEB_URL = `http://localhost:${WEB_PORT}`;
export const E2E_ADMIN_EMAIL = 'admin@balcao.local';
export const E2E_ADMIN_PASSWORD = 'e2e-admin-password-1';
