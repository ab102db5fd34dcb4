// "Hoàn tác" from the audit log: an entry whose action has an undo is reversed from the data it kept, once,
// by an admin, and the undo is itself an entry pointing at the original.
import { beforeEach, describe, expect, it } from 'vitest';
import type { AuditResponse, UndoAuditResponse } from '../../worker/schemas/admin';
import type { FilmDetailResponse } from '../../worker/schemas/catalogue';
import { createTestApp, errorOf, type TestApp } from '../helpers/app';
import { bearer, fakeClock, insertFilm, signedInUser } from '../helpers/auth';

let t: TestApp;
let admin: { authorization: string };
const clock = fakeClock();

beforeEach(async () => {
  t = await createTestApp({ now: clock.now });
  admin = bearer((await signedInUser(t, { roles: 'admin' })).session.token);
  await insertFilm(t.deps.db, 'phim-a', 'Phim A');
});

const audit = async (action?: string) =>
  (await (await t.request(`/api/admin/audit${action ? `?action=${action}` : ''}`, { headers: admin })).json()) as AuditResponse;
const vip1 = async () => ((await (await t.request('/api/product/phim-a')).json()) as FilmDetailResponse).datafilm.VIP1;

describe('POST /api/admin/audit/{id}/undo', () => {
  it('puts the VIP1 flag back, records the undo against the original, and refuses a second undo', async () => {
    expect((await t.request('/api/product/edit_packageVIP1', { json: { title: 'phim-a', VIP1: 1 }, headers: admin })).status).toBe(200);
    expect(await vip1()).toBe(1);
    const [entry] = (await audit('film.vip1')).data;
    expect(entry).toMatchObject({ action: 'film.vip1', target: 'phim-a', undoable: true, undoneAt: null, undoOf: null });

    clock.advance(60_000);
    const res = await t.request(`/api/admin/audit/${entry!.id}/undo`, { method: 'POST', headers: admin });
    expect(res.status).toBe(200);
    const body = (await res.json()) as UndoAuditResponse;
    expect(body.message).toBe('Đã hoàn tác');
    // The public detail reads the catalogue again after a write (its version moved).
    expect(await vip1()).toBe(0);

    const [undo, original] = (await audit('film.vip1')).data;
    expect(undo).toMatchObject({ id: body.undoId, undoOf: entry!.id, undoable: false, before: { VIP1: 1 }, after: { VIP1: 0 } });
    expect(original).toMatchObject({ id: entry!.id, undoable: false, undoneAt: clock.now() });

    const again = await t.request(`/api/admin/audit/${entry!.id}/undo`, { method: 'POST', headers: admin });
    expect(again.status).toBe(409);
    expect((await errorOf(again)).message).toBe('Thao tác này đã được hoàn tác.');
    expect(await vip1()).toBe(0);
  });

  it('undoes once when two admins press at the same time', async () => {
    await t.request('/api/product/edit_packageVIP1', { json: { title: 'phim-a', VIP1: 1 }, headers: admin });
    const [entry] = (await audit('film.vip1')).data;
    const statuses = await Promise.all(
      [1, 2].map(async () => (await t.request(`/api/admin/audit/${entry!.id}/undo`, { method: 'POST', headers: admin })).status),
    );
    expect(statuses.sort()).toEqual([200, 409]);
    expect((await audit('film.vip1')).data.filter((e) => e.undoOf === entry!.id)).toHaveLength(1);
  });

  it('refuses an action with no undo, an undo entry, an unknown id and a bad id, changing nothing', async () => {
    await t.request('/api/product/edit_packageVIP1', { json: { title: 'phim-a', VIP1: 1 }, headers: admin });
    const [entry] = (await audit('film.vip1')).data;
    await t.request(`/api/admin/audit/${entry!.id}/undo`, { method: 'POST', headers: admin });
    const [undo] = (await audit('film.vip1')).data;
    const before = (await audit()).pagination.totalItems;

    const ofUndo = await t.request(`/api/admin/audit/${undo!.id}/undo`, { method: 'POST', headers: admin });
    expect(ofUndo.status).toBe(409);
    expect(await errorOf(ofUndo)).toEqual({ code: 'not_undoable', message: 'Thao tác này không thể hoàn tác.' });

    // settings.update has no undo.
    await t.request('/api/admin/settings', { method: 'PUT', json: { hotline: '1900 1111' }, headers: admin });
    const [settings] = (await audit('settings.update')).data;
    expect(settings!.undoable).toBe(false);
    expect((await t.request(`/api/admin/audit/${settings!.id}/undo`, { method: 'POST', headers: admin })).status).toBe(409);

    expect((await t.request('/api/admin/audit/999999/undo', { method: 'POST', headers: admin })).status).toBe(404);
    const bad = await t.request('/api/admin/audit/abc/undo', { method: 'POST', headers: admin });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toMatch(/^id: /);
    expect((await audit()).pagination.totalItems).toBe(before + 1);
    expect(await vip1()).toBe(0);
  });

  it('refuses the undo of a film deleted since, and keeps the entry undoable', async () => {
    await t.request('/api/product/edit_packageVIP1', { json: { title: 'phim-a', VIP1: 1 }, headers: admin });
    const [entry] = (await audit('film.vip1')).data;
    await t.request('/api/product/delete_product?title=phim-a', { method: 'DELETE', headers: admin });
    const res = await t.request(`/api/admin/audit/${entry!.id}/undo`, { method: 'POST', headers: admin });
    expect(res.status).toBe(409);
    expect((await audit('film.vip1')).data[0]).toMatchObject({ id: entry!.id, undoable: true, undoneAt: null });
  });

  it('is for admins only', async () => {
    await t.request('/api/product/edit_packageVIP1', { json: { title: 'phim-a', VIP1: 1 }, headers: admin });
    const [entry] = (await audit('film.vip1')).data;
    const vip2 = bearer((await signedInUser(t, { permissions: 'VIP2' })).session.token);
    expect((await t.request(`/api/admin/audit/${entry!.id}/undo`, { method: 'POST', headers: vip2 })).status).toBe(403);
    expect((await t.request(`/api/admin/audit/${entry!.id}/undo`, { method: 'POST' })).status).toBe(401);
    expect(await vip1()).toBe(1);
  });
});
