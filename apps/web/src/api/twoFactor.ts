import { useQuery } from '@tanstack/react-query';
import type { RecoveryCodes, TwoFactorEnrolment, TwoFactorLoginResponse, TwoFactorStatus } from '@balcao/contracts';
import { request } from './http';

export const twoFactorKey = ['auth', '2fa'] as const;

/** `GET /auth/2fa`: the caller's two-factor state and the company's rule. */
export function useTwoFactorStatus() {
  return useQuery({ queryKey: twoFactorKey, queryFn: ({ signal }) => request<TwoFactorStatus>('/auth/2fa', { signal }) });
}

export const startEnrolment = () => request<TwoFactorEnrolment>('/auth/2fa/enrol', { method: 'POST', body: {} });
export const confirmEnrolment = (code: string) => request<RecoveryCodes>('/auth/2fa/verify', { method: 'POST', body: { code } });
export const disableTwoFactor = (code: string) => request<object>('/auth/2fa/disable', { method: 'POST', body: { code } });

/** The login page's steps: public calls that carry the password step's challenge. */
export const startLoginEnrolment = (challenge: string) =>
  request<TwoFactorEnrolment>('/auth/login/2fa/enrol', { method: 'POST', body: { challenge }, auth: false });
export const loginWithCode = (challenge: string, code: string) =>
  request<TwoFactorLoginResponse>('/auth/login/2fa', { method: 'POST', body: { challenge, code }, auth: false });
