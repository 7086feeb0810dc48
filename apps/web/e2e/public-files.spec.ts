import { expect, test } from '@playwright/test';
import { E2E_API_URL } from './env';
import { admin, apiToken, uniqueEmail } from './helpers';

/**
 * Issue 9 point 2: an uploaded file with a name a browser maps to HTML, XHTML, XML or SVG
 * never runs its script when Chromium opens it from the API origin (where the refresh
 * cookie lives). Each file logs a marker and retitles its page if any script of it runs.
 */
const XHTML = Buffer.from(
  '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>inert</title></head><body><script>console.log("xss-ran");document.title="xss-ran"</script></body></html>',
);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="console.log(\'xss-ran\')"><script>console.log("xss-ran")</script></svg>');
const FILES: [string, Buffer][] = [
  ['page.shtml', XHTML],
  ['page.xht', XHTML],
  ['style.xsl', XHTML],
  ['image.svgz', SVG],
  ['page.html', XHTML],
  ['image.svg', SVG],
];

test('uploaded files are served inert: a download, sandboxed, and no script runs in Chromium', async ({ page, request }) => {
  const superToken = await apiToken(request, admin.email, admin.password);
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const me = await (await request.get(`${E2E_API_URL}/auth/me`, { headers: auth(superToken) })).json();
  const email = uniqueEmail('files');
  const password = 'files-owner-pass-1';
  const company = await request.post(`${E2E_API_URL}/companies`, {
    headers: auth(superToken),
    data: { name: `Arquivos ${Date.now() % 1e6}`, email, password, planId: me.company.plan.id },
  });
  expect(company.status(), await company.text()).toBe(200);
  const companyId = (await company.json()).id as number;
  const token = await apiToken(request, email, password);
  const connection = await request.post(`${E2E_API_URL}/whatsapp`, { headers: auth(token), data: { name: 'Arquivos' } });
  expect(connection.status(), await connection.text()).toBeLessThan(300);
  const connectionId = (await connection.json()).id as number;

  const ran: string[] = [];
  page.on('console', (msg) => {
    if (msg.text().includes('xss-ran')) ran.push(`${page.url()}: ${msg.text()}`);
  });
  page.on('dialog', (dialog) => {
    ran.push(`dialog on ${page.url()}`);
    void dialog.dismiss();
  });

  const titles: [string, string][] = [];
  const responses: [string, number, Record<string, string>][] = [];
  for (const [name, buffer] of FILES) {
    const uploaded = await request.post(`${E2E_API_URL}/whatsapp/${connectionId}/media-upload`, {
      headers: auth(token),
      multipart: { file: { name, mimeType: 'image/x-unknown', buffer } },
    });
    expect(uploaded.status(), `${name}: ${await uploaded.text()}`).toBe(200);
    const url = `${E2E_API_URL}/public/company${companyId}/${(await uploaded.json()).greetingMediaAttachment}`;

    // Opening it in the browser at most starts a download; nothing of it runs on the API origin.
    await page.goto(url).catch(() => undefined);
    await page.waitForTimeout(300);
    titles.push([name, await page.title().catch(() => '')]);
    const served = await request.get(url);
    responses.push([name, served.status(), served.headers()]);
  }
  expect(ran).toEqual([]);
  for (const [name, title] of titles) expect(title, name).not.toBe('xss-ran');
  for (const [name, status, headers] of responses) {
    expect(status, name).toBe(200);
    expect(headers['content-type'], name).toBe('application/octet-stream');
    expect(headers['content-disposition'], name).toBe('attachment');
    expect(headers['content-security-policy'], name).toBe("default-src 'none'; sandbox");
    expect(headers['x-content-type-options'], name).toBe('nosniff');
  }
});
