import { AVATAR_MAX_SIDE_PX } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/index.js';
import { bearer, type TestApp } from '../../../test/helpers.js';
import { multipart } from '../../../test/multipart.js';
import { createAdminTestApp, setupRoles, type Roles } from '../../../test/roles.js';
import { AVATAR_UPLOAD_MAX_BYTES } from './avatar.js';

let t: TestApp;
let roles: Roles;
beforeAll(async () => {
  t = await createAdminTestApp();
  roles = await setupRoles(t);
});
afterAll(() => t.close());

const png = (width: number, height: number) => sharp({ create: { width, height, channels: 4, background: '#3366ff' } }).png().toBuffer();

function upload(token: string, userId: number, data: Buffer, type = 'image/png') {
  const body = multipart({ userId: String(userId), typeArch: 'user' }, { field: 'profileImage', name: 'me.png', type, data });
  return t.app.inject({ method: 'POST', url: `/users/${userId}/media-upload`, payload: body.payload, headers: { ...body.headers, ...bearer(token) } });
}

const companyFolder = () => join(t.app.ctx.config.dataDir, 'public', `company${roles.companyId}`);
const storedFiles = () => (existsSync(companyFolder()) ? readdirSync(companyFolder()) : []);

describe('POST /users/{id}/media-upload', () => {
  it('stores the own avatar as a JPEG whose longest side is 240 px, replacing the previous one', async () => {
    const res = await upload(roles.user.token, roles.user.user.id, await png(800, 400));
    expect(res.statusCode).toBe(200);
    const first = res.json().user.profileImage as string;
    expect(first).toMatch(/^avatar-[0-9a-f]{32}\.jpg$/);
    const stored = readFileSync(join(companyFolder(), first));
    const meta = await sharp(stored).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: AVATAR_MAX_SIDE_PX, height: 120 });
    expect((await t.app.inject({ method: 'GET', url: `/public/company${roles.companyId}/${first}` })).statusCode).toBe(200);

    const again = await upload(roles.user.token, roles.user.user.id, await png(90, 360));
    const second = again.json().user.profileImage as string;
    expect(await sharp(readFileSync(join(companyFolder(), second))).metadata()).toMatchObject({ width: 60, height: 240 });
    expect(storedFiles()).toEqual([second]);
  });

  it('refuses a non-image (whatever its declared type) and an oversized file, storing nothing', async () => {
    const before = storedFiles();
    const text = await upload(roles.admin.token, roles.admin.user.id, Buffer.from('<svg onload="alert(1)"></svg>'), 'image/png');
    expect(text.statusCode).toBe(400);
    expect(text.json().error).toBe('ERR_INVALID_IMAGE');
    const huge = Buffer.concat([await png(10, 10), Buffer.alloc(AVATAR_UPLOAD_MAX_BYTES)]);
    const big = await upload(roles.admin.token, roles.admin.user.id, huge);
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toBe('ERR_FILE_TOO_LARGE');
    expect(storedFiles()).toEqual(before);
    const [admin] = await t.db.select().from(users).where(eq(users.id, roles.admin.user.id));
    expect(admin?.profileImage).toBeNull();
  });

  it("refuses anyone else's avatar, an admin's included", async () => {
    const res = await upload(roles.admin.token, roles.user.user.id, await png(50, 50));
    expect(res.statusCode).toBe(403);
    expect((await upload(roles.otherAdmin.token, roles.user.user.id, await png(50, 50))).statusCode).toBe(403);
  });
});
