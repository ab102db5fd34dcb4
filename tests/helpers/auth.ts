import { eq } from 'drizzle-orm';
import type { Db } from '../../worker/db/client';
import { films, users } from '../../worker/db/schema';
import { hashPassword } from '../../worker/services/auth/password';
import type { LoginResponse } from '../../worker/schemas/auth';
import type { TestApp } from './app';

/** A minimal film row, enough for comments and ratings (category 24 = Phim Bộ). */
export async function insertFilm(db: Db, slug: string, title = `Phim ${slug}`): Promise<number> {
  const [row] = await db.insert(films).values({ slug, title, categoryId: 24 }).returning({ id: films.id });
  return row!.id;
}

export interface TestUser {
  id: number;
  email: string;
  password: string;
  name: string;
}

let counter = 0;

/** Inserts a user straight into the database (no HTTP, no rate limit). */
export async function createUser(
  db: Db,
  options: { email?: string; name?: string; password?: string; roles?: string; permissions?: string } = {},
): Promise<TestUser> {
  counter += 1;
  const email = options.email ?? `nguoi-xem-${counter}@example.com`;
  const password = options.password ?? `mat-khau-${counter}-dai`;
  const name = options.name ?? `Người xem ${counter}`;
  const [row] = await db
    .insert(users)
    .values({
      email,
      username: name,
      passwordHash: await hashPassword(password),
      roles: options.roles ?? 'user',
      permissions: options.permissions ?? '',
    })
    .returning({ id: users.id });
  return { id: row!.id, email, password, name };
}

/** Signs in through POST /api/dang-nhap; each call from its own IP so IP limits stay out of the way. */
export async function login(
  t: TestApp,
  user: { email: string; password: string },
  ip = `198.51.100.${(counter++ % 250) + 1}`,
): Promise<LoginResponse & { refreshToken: string }> {
  const res = await t.request('/api/dang-nhap', {
    json: { email: user.email, password: user.password },
    headers: { 'x-forwarded-for': ip },
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as LoginResponse & { refreshToken: string };
}

/** A user plus a signed-in session. */
export async function signedInUser(
  t: TestApp,
  options: Parameters<typeof createUser>[1] = {},
): Promise<TestUser & { session: LoginResponse & { refreshToken: string } }> {
  const user = await createUser(t.deps.db, options);
  return { ...user, session: await login(t, user) };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export async function storedPasswordHash(db: Db, userId: number): Promise<string> {
  const [row] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId));
  return row?.hash ?? '';
}

/** A clock the test moves by hand. */
export function fakeClock(start = Date.UTC(2026, 0, 15, 12, 0, 0)) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}
