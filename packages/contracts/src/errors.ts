/**
 * The error catalogue (spec 1 §8) plus the few codes the server needs for
 * generic HTTP failures. Every error the API answers carries one of these.
 */
export const ERROR_CODES = [
  'ERR_NO_OTHER_WHATSAPP',
  'ERR_NO_DEF_WAPP_FOUND',
  'ERR_WAPP_NOT_INITIALIZED',
  'ERR_WAPP_CHECK_CONTACT',
  'ERR_WAPP_INVALID_CONTACT',
  'ERR_WAPP_DOWNLOAD_MEDIA',
  'ERR_INVALID_CREDENTIALS',
  'ERR_SENDING_WAPP_MSG',
  'ERR_DELETE_WAPP_MSG',
  'ERR_EDIT_WAPP_MSG',
  'ERR_OTHER_OPEN_TICKET',
  'ERR_SESSION_EXPIRED',
  'ERR_USER_CREATION_DISABLED',
  'ERR_NO_PERMISSION',
  'ERR_DUPLICATED_CONTACT',
  'ERR_NO_SETTING_FOUND',
  'ERR_NO_CONTACT_FOUND',
  'ERR_NO_TICKET_FOUND',
  'ERR_NO_USER_FOUND',
  'ERR_NO_WAPP_FOUND',
  'ERR_CREATING_MESSAGE',
  'ERR_CREATING_TICKET',
  'ERR_FETCH_WAPP_MSG',
  'ERR_QUEUE_COLOR_ALREADY_EXISTS',
  'ERR_WAPP_GREETING_REQUIRED',
  'ERR_OUT_OF_HOURS',
  // Added by Balcão for failures the catalogue leaves unnamed.
  'ERR_VALIDATION',
  'ERR_TOO_MANY_REQUESTS',
  'ERR_NOT_FOUND',
  'ERR_EMAIL_ALREADY_EXISTS',
  'ERR_NO_PLAN_FOUND',
  'ERR_NO_COMPANY_FOUND',
  'ERR_PAYLOAD_TOO_LARGE',
  'ERR_INTERNAL',
  'ERR_2FA_REQUIRED',
  'ERR_2FA_SETUP_REQUIRED',
  'ERR_INVALID_2FA_CODE',
  'ERR_COMPANY_NAME_EXISTS',
  'ERR_USER_LIMIT_REACHED',
  // Connections and channels.
  'ERR_PLAN_FEATURE_DISABLED',
  'ERR_CONNECTION_LIMIT_REACHED',
  'ERR_PAGE_ALREADY_CONNECTED',
  'ERR_TOKEN_IN_USE',
  'ERR_INVALID_SIGNATURE',
  'ERR_INVALID_MEDIA_TYPE',
  'ERR_FACEBOOK_LOGIN',
  'ERR_FACEBOOK_NOT_CONFIGURED',
  // Plans and administration.
  'ERR_QUEUE_LIMIT_REACHED',
  'ERR_PLAN_IN_USE',
  'ERR_NO_QUEUE_FOUND',
  'ERR_QUEUE_NAME_ALREADY_EXISTS',
  'ERR_NO_HELP_FOUND',
  'ERR_NO_ANNOUNCEMENT_FOUND',
  'ERR_LAST_ADMIN',
  'ERR_INVALID_IMAGE',
  'ERR_FILE_TOO_LARGE',
  'ERR_TOO_MANY_FILES',
  'ERR_COMMON_PASSWORD',
  // Inbox and conversation.
  'ERR_REQUIRED_TAG',
  'ERR_DELETE_CLOSED_TICKET',
  'ERR_TICKET_ALREADY_ACCEPTED',
  'ERR_INVALID_TRANSITION',
  'ERR_QUEUE_REQUIRED',
  'ERR_TICKET_NOT_OPEN',
  'ERR_EMPTY_MESSAGE',
  'ERR_EDIT_WINDOW_EXPIRED',
  'ERR_NO_MESSAGE_FOUND',
  'ERR_NO_TAG_FOUND',
  'ERR_NO_QUICK_MESSAGE_FOUND',
  'ERR_NO_NOTE_FOUND',
  'ERR_TAG_ALREADY_EXISTS',
  'ERR_CONTACT_BLOCKED',
  // Contacts.
  'ERR_INVALID_SPREADSHEET',
  'ERR_NO_SCHEDULE_FOUND',
  // Internal chat and outbound webhooks.
  'ERR_NO_CHAT_FOUND',
  'ERR_NO_WEBHOOK_FOUND',
  // Billing.
  'ERR_SUBSCRIPTION_EXPIRED',
  'ERR_INVOICE_ALREADY_PAID',
  'ERR_PAYMENT_NOT_CONFIGURED',
  'ERR_PAYMENT_PROVIDER',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** One field problem inside a 400 ERR_VALIDATION answer. */
export interface FieldIssue {
  path: string;
  message: string;
}

/** The body of every error answer. */
export interface ErrorBody {
  error: ErrorCode;
  message?: string;
  issues?: FieldIssue[];
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}
