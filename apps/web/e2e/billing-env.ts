import { GRAPH_ORIGIN } from './meta-env';

/**
 * The main product pays through the fake Efí PIX API, served under `/efi` by the same fake process
 * as the Graph API (apps/server/tools/fake-graph.ts). The credentials are the fake's
 * (apps/server/test/fakes/efi-server.ts).
 */
export const EFI_ORIGIN = `${GRAPH_ORIGIN}/efi`;
export const BILLING_ENV = {
  EFI_CLIENT_ID: 'Client_Id_fake',
  EFI_CLIENT_SECRET: 'Client_Secret_fake',
  EFI_API_URL: EFI_ORIGIN,
  EFI_WEBHOOK_SECRET: 'e2e-webhook-secret-0123',
  PIX_KEY: 'pix@balcao.test',
};
