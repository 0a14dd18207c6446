import type { User } from '../src/domain/user';

/** An unsigned JWT with the claims the client reads (the server checks signatures, not the client). */
export function fakeToken(claims: { userId: string; role?: string; exp?: number }) {
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${enc({ alg: 'HS256', typ: 'JWT' })}.${enc({ role: 'creator', exp: 4102444800, ...claims })}.sig`;
}

export function makeUser(over: Partial<User> = {}): User {
  return {
    id: 'u1',
    email: 'ada@example.com',
    username: 'ada_lovelace',
    firstName: 'Ada',
    lastName: 'Lovelace',
    walletAddress: '0x01cf0e2f2f715450',
    ethAddress: null,
    collectorScore: 0,
    viewedCollectorScore: 0,
    level: 1,
    createdAt: '2026-11-01T00:00:00.000Z',
    avatarUrl: null,
    identiconAvatar: null,
    role: 'creator',
    status: 'active',
    wallet: { walletAddress: '0x01cf0e2f2f715450' },
    kyc: {
      id: null,
      sessionId: null,
      url: null,
      status: 'unknown',
      code: null,
      firstName: null,
      lastName: null,
      reason: null,
      reasonCode: null,
      updatedAt: null,
    },
    ...over,
  };
}
