import type { BrowserContext } from '@playwright/test';

/** A 1×1 PNG: what the network boundary answers for a remote picture. */
export const BLANK_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/**
 * No internet here: customers' profile pictures (Meta CDN links, from this test or an earlier one
 * in the shared inbox) are answered at the network boundary instead of failing to resolve.
 */
export async function answerRemotePictures(context: BrowserContext): Promise<void> {
  await context.route(
    (url) => !['localhost', '127.0.0.1'].includes(url.hostname),
    (route) => route.fulfill({ status: 200, contentType: 'image/png', body: BLANK_PNG }),
  );
}
