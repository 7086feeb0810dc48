import { z } from 'zod';
import { authResponseSchema } from './auth.js';

/** A 6-digit TOTP code or a recovery code (`xxxxx-xxxxx`); spaces and dashes typed by people are tolerated. */
export const twoFactorCode = z
  .string()
  .trim()
  .min(6)
  .max(20)
  .transform((v) => v.replace(/[\s-]/g, '').toLowerCase());

export const RECOVERY_CODE_COUNT = 10;

/** `GET /auth/2fa`: the caller's state and the company's rule. */
export const twoFactorStatusSchema = z.object({ enabled: z.boolean(), required: z.boolean(), recoveryCodesLeft: z.number() });
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

/** `POST /auth/2fa/enrol` (and at login when the company requires it): the secret to scan. */
export const twoFactorEnrolmentSchema = z.object({ secret: z.string(), otpauthUrl: z.string() });
export type TwoFactorEnrolment = z.infer<typeof twoFactorEnrolmentSchema>;

/** `POST /auth/2fa/verify`, `POST /auth/2fa/disable`. */
export const twoFactorCodeBody = z.object({ code: twoFactorCode });
export type TwoFactorCodeBody = z.input<typeof twoFactorCodeBody>;

/** The ten recovery codes, shown once. */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/**
 * The password was right and a second factor is due: `POST /auth/login` answers 401
 * `ERR_2FA_REQUIRED` (or 403 `ERR_2FA_SETUP_REQUIRED` when the company requires it and the
 * user has none yet) with this challenge, valid five minutes.
 */
export const twoFactorChallengeSchema = z.object({ error: z.string(), challenge: z.string() });
/** `POST /auth/login`'s 401 and 403 as OpenAPI documents them: an error code, with the challenge when a second factor is due. */
export const loginRefusalSchema = z.object({ error: z.string(), message: z.string().optional(), challenge: z.string().optional() });

/** `POST /auth/login/2fa`. */
export const twoFactorLoginBody = z.object({ challenge: z.string().min(1).max(2000), code: twoFactorCode });
export type TwoFactorLoginBody = z.input<typeof twoFactorLoginBody>;
/** `POST /auth/login/2fa/enrol`: the enrolment a required user starts from the login page. */
export const twoFactorChallengeBody = z.object({ challenge: z.string().min(1).max(2000) });

/** A completed code step; `recoveryCodes` only when it finished an enrolment. */
export const twoFactorLoginResponseSchema = authResponseSchema.extend({ recoveryCodes: z.array(z.string()).optional() });
export type TwoFactorLoginResponse = z.infer<typeof twoFactorLoginResponseSchema>;

/** `PUT /auth/2fa/policy`: admins for their company, the super user for any (`companyId`). */
export const twoFactorPolicyBody = z.object({ required: z.boolean(), companyId: z.number().int().positive().optional() });
export type TwoFactorPolicyBody = z.input<typeof twoFactorPolicyBody>;
