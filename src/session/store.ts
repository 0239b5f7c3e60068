/**
 * The session (spec §4): logged out → logged in when a token is stored. The token lives in
 * localStorage 'token' (so a reload restores the user through GET /service-priv/user/current), the
 * login type in localStorage 'loginType' (it picks the login page to return to). The user is kept
 * in memory only and restored by the route guard.
 */
import { playTypeKey, VIDEO_MAX_CHANNELS } from '../../domain/video/limits.ts';
import { useMemo } from 'react';
import { proxy, ref, useSnapshot } from 'valtio';
import { Access } from '../../domain/permissions/access.ts';
import type { PermissionMask } from '../../domain/permissions/bits.ts';
import { isLoginType, type LoginType } from '../../domain/session/login-type.ts';
import { nextToken } from '../../domain/session/token.ts';
import { resetCompanySelection } from './company-selection.ts';
import { readLocal, writeLocal } from './storage.ts';

export interface SessionUser {
  id: number;
  username: string;
  realName: string | null;
  /** 0 administrator, 1 company administrator, 2 user. */
  userLevel: number;
  companyId: number;
  geoInverse: boolean;
  permissions: PermissionMask[];
}

export interface SessionState {
  token: string | null;
  user: SessionUser | null;
  loginType: LoginType;
}

export const TOKEN_KEY = 'token';
export const LOGIN_TYPE_KEY = 'loginType';
/** Remember-me: holds the remembered user name; its presence is the flag. */
export const REMEMBER_KEY = 'rememberMe';
/** Playback type settings per video window (spec §9: indices 0–24), cleared at sign-out. */
export const PLAY_TYPE_KEYS: readonly string[] = Array.from({ length: VIDEO_MAX_CHANNELS }, (_, i) => playTypeKey(i));

function storedLoginType(): LoginType {
  const v = readLocal(LOGIN_TYPE_KEY);
  return isLoginType(v) ? v : 'default';
}

export const session = proxy<SessionState>({
  token: readLocal(TOKEN_KEY),
  user: null,
  loginType: storedLoginType(),
});

/** Applies a `jwt` response header: a fresh token replaces the stored one. */
export function applyTokenHeader(header: string | null): void {
  const next = nextToken(session.token, header);
  if (next !== session.token) {
    session.token = next;
    writeLocal(TOKEN_KEY, next);
  }
}

/** The token as stored (the guard reads storage, as another tab may have signed in or out). */
export function storedToken(): string | null {
  return readLocal(TOKEN_KEY);
}

export function setUser(user: SessionUser): void {
  // ref(): the permission masks are read, never mutated; no need to proxy them deeply
  session.user = { ...user, permissions: ref([...user.permissions]) as PermissionMask[] };
}

export function signIn(token: string, user: SessionUser, loginType: LoginType): void {
  session.token = token;
  session.loginType = loginType;
  writeLocal(TOKEN_KEY, token);
  writeLocal(LOGIN_TYPE_KEY, loginType);
  setUser(user);
  resetCompanySelection(user.companyId);
}

/**
 * Forgets the session locally: token and user. The login type stays, as it decides which login
 * page the user returns to.
 */
export function clearSession(): void {
  session.token = null;
  session.user = null;
  writeLocal(TOKEN_KEY, null);
  resetCompanySelection(null);
}

/** Sign-out (spec §4) also clears the remember-me flag and the stored playback type settings. */
export function clearSignOutState(): void {
  clearSession();
  writeLocal(REMEMBER_KEY, null);
  for (const key of PLAY_TYPE_KEYS) writeLocal(key, null);
}

export function rememberedUsername(): string | null {
  return readLocal(REMEMBER_KEY);
}

export function setRememberedUsername(username: string | null): void {
  writeLocal(REMEMBER_KEY, username);
}

export function useSession(): Readonly<SessionState> {
  return useSnapshot(session) as Readonly<SessionState>;
}

const NOBODY = new Access({ userLevel: Number.POSITIVE_INFINITY, permissions: [] });

/** Access of a user object (NOBODY without one: only routes without a permission record show). */
export function accessOf(user: Pick<SessionUser, 'userLevel' | 'permissions'> | null): Access {
  return user ? new Access({ userLevel: user.userLevel, permissions: user.permissions }) : NOBODY;
}

let cached: { user: SessionUser | null; access: Access } = { user: null, access: NOBODY };

/** The current user's Access, outside React (guard, navigation helpers). */
export function currentAccess(): Access {
  if (cached.user !== session.user) cached = { user: session.user, access: accessOf(session.user) };
  return cached.access;
}

/** The current user's Access; recomputed when the user changes. */
export function useAccess(): Access {
  const snap = useSnapshot(session);
  const user = snap.user;
  return useMemo(() => accessOf(user as SessionUser | null), [user]);
}

/** Display name rule: realName, else username. */
export function displayName(user: Pick<SessionUser, 'realName' | 'username'> | null): string {
  if (!user) return '';
  return user.realName?.trim() ? user.realName : user.username;
}
