import { beforeEach, describe, expect, it, vi } from 'vitest';

const request = vi.fn<(path: string, opts?: { method?: string; body?: unknown }) => Promise<unknown>>();
vi.mock('../../../api/http', () => ({ request: (path: string, opts?: { method?: string; body?: unknown }) => request(path, opts) }));

const { FORWARD_INTERVAL_MS, forwardMessages } = await import('./conversationQueries');

describe('forwardMessages', () => {
  beforeEach(() => request.mockReset().mockResolvedValue({}));

  it('sends one call per message per contact, 900 ms apart', async () => {
    const waits: number[] = [];
    await forwardMessages([1, 2], [10, 20], true, async (ms) => {
      waits.push(ms);
    });
    expect(FORWARD_INTERVAL_MS).toBe(900);
    expect(request.mock.calls.map(([path, opts]) => [path, opts?.method, opts?.body])).toEqual([
      ['/message/forward', 'POST', { messageId: 1, contactId: 10, signMessage: true }],
      ['/message/forward', 'POST', { messageId: 2, contactId: 10, signMessage: true }],
      ['/message/forward', 'POST', { messageId: 1, contactId: 20, signMessage: true }],
      ['/message/forward', 'POST', { messageId: 2, contactId: 20, signMessage: true }],
    ]);
    expect(waits).toEqual([900, 900, 900]);
  });

  it('stops at the first refused call', async () => {
    request.mockResolvedValueOnce({}).mockRejectedValueOnce(new Error('ERR_NO_PERMISSION'));
    await expect(forwardMessages([1, 2, 3], [10], false, async () => undefined)).rejects.toThrow('ERR_NO_PERMISSION');
    expect(request).toHaveBeenCalledTimes(2);
  });
});
