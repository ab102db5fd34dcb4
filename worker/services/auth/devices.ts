// The member's signed-in devices: one per refresh-token family (a sign-in), described from its User-Agent
// (bowser), last active at its latest sign-in or renewal. Signing a device out revokes its family: its
// refresh token stops at once, and so does its access token (the viewer check reads the family, see
// viewer.ts), docs/decisions/0980.
import Bowser from 'bowser';
import { and, desc, eq, gt, isNull, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { refreshTokens } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import type { DeviceDto } from '../../schemas/account';
import { DEVICE_MESSAGES } from '../../schemas/account-texts';

/** "Chrome 130" / "Android 14" / phone, tablet or computer, from a User-Agent ("" → unknown). */
export function describeUserAgent(userAgent: string): Pick<DeviceDto, 'browser' | 'os' | 'kind'> {
  if (!userAgent) return { browser: 'Trình duyệt không xác định', os: 'Hệ điều hành không xác định', kind: 'desktop' };
  const parsed = Bowser.parse(userAgent);
  const major = (version?: string) => version?.split('.').slice(0, 2).join('.').replace(/\.0$/, '');
  const browserVersion = parsed.browser.version?.split('.')[0];
  const browser = parsed.browser.name
    ? `${parsed.browser.name}${browserVersion ? ` ${browserVersion}` : ''}`
    : 'Trình duyệt không xác định';
  const osVersion = major(parsed.os.version);
  const os = parsed.os.name ? `${parsed.os.name}${osVersion ? ` ${osVersion}` : ''}` : 'Hệ điều hành không xác định';
  const kind = parsed.platform.type === 'mobile' ? 'mobile' : parsed.platform.type === 'tablet' ? 'tablet' : 'desktop';
  return { browser, os, kind };
}

/** The live token of each of the user's families (unused, unrevoked, unexpired): one row per device, newest activity first. */
export async function listDevices(db: Db, userId: number, currentSid: string | undefined, now: number): Promise<DeviceDto[]> {
  const rows = await db
    .select({
      familyId: refreshTokens.familyId,
      userAgent: refreshTokens.userAgent,
      signedInAt: refreshTokens.signedInAt,
      createdAt: refreshTokens.createdAt,
    })
    .from(refreshTokens)
    .where(
      and(
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.usedAt),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, now),
      ),
    )
    .orderBy(desc(refreshTokens.createdAt), desc(refreshTokens.id))
    .limit(100);
  const seen = new Set<string>();
  const devices: DeviceDto[] = [];
  for (const row of rows) {
    if (seen.has(row.familyId)) continue;
    seen.add(row.familyId);
    devices.push({
      id: row.familyId,
      ...describeUserAgent(row.userAgent),
      signedInAt: row.signedInAt || row.createdAt,
      lastActiveAt: row.createdAt,
      current: row.familyId === currentSid,
    });
  }
  // This device first, then by last activity.
  return devices.sort((a, b) => Number(b.current) - Number(a.current) || b.lastActiveAt - a.lastActiveAt);
}

/** "Đăng xuất" on one device: revokes its family (only one of this user's, still signed in); 404 otherwise. */
export async function signOutDevice(db: Db, userId: number, familyId: string, now: number): Promise<void> {
  const revoked = await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.userId, userId), eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  if (revoked.length === 0) throw new ApiError(404, 'not_found', DEVICE_MESSAGES.notFound);
}

/** "Đăng xuất khỏi các thiết bị khác": every family of the user but the caller's. Answers how many devices. */
export async function signOutOtherDevices(db: Db, userId: number, currentSid: string | undefined, now: number): Promise<number> {
  const revoked = await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(
      and(
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
        // A token of an older build names no device: then every family is another device's.
        currentSid ? ne(refreshTokens.familyId, currentSid) : undefined,
      ),
    )
    .returning({ familyId: refreshTokens.familyId });
  return new Set(revoked.map((r) => r.familyId)).size;
}
