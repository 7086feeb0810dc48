import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plans } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';

describe('GET /plans/list', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.db.insert(plans).values({ name: 'Privado', users: 1, connections: 1, queues: 1, amount: '10', isPublic: false });
  });
  afterAll(() => t.close());

  it('answers the public plans to a visitor, as a bare array, without private ones', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/plans/list?listPublic=false' });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { name: string; isPublic: boolean; useWhatsapp: boolean }[];
    expect(Array.isArray(body)).toBe(true);
    expect(body.map((p) => p.name)).toContain('Plano 1');
    expect(body.map((p) => p.name)).not.toContain('Privado');
    expect(body.every((p) => p.isPublic)).toBe(true);
    expect(body[0]).toMatchObject({ useWhatsapp: true });
  });
});
