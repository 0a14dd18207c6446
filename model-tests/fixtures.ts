import type { BlueprintJson } from '#domain/catalog';
import type { User } from '#domain/user';

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
    nfts: 1,
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

/** A product of the creator's storefront (GET blueprints/{id}). */
export function makeBlueprint(over: Partial<BlueprintJson> = {}): BlueprintJson {
  return {
    id: '0b6f1d2e-58a4-4f0e-9c41-1b2c3d4e5f60',
    blueprintId: '0b6f1d2e-58a4-4f0e-9c41-1b2c3d4e5f60',
    flowBlueprintId: '1042',
    title: 'Night Loop',
    description: 'A looping night drive.',
    assetUrl: '/media/uploads/u1/asset.png',
    previewImageUrl: '/media/uploads/u1/preview.png',
    quantity: 10,
    quantityAvailable: 10,
    price: 2500,
    royaltyPercent: 10,
    totalFeePercent: 5,
    rarityLevel: 'common',
    state: 'created',
    status: null,
    visible: true,
    availableTime: null,
    createdAt: '2026-11-20T10:00:00.000Z',
    drop: false,
    type: 'standalone',
    blueprintPackId: null,
    pack: null,
    storefront: {
      id: 's1',
      name: 'Night Shop',
      logoUrl: null,
      theme: 'light',
      vanityUrl: 'night-shop',
      category: null,
    },
    isSticker: false,
    isPack: false,
    isNft: true,
    isDrop: false,
    isPrinted: false,
    isSoldOut: false,
    isInPack: false,
    shareImage: {
      url: '/og/nft/0b6f1d2e-58a4-4f0e-9c41-1b2c3d4e5f60.png?v=0123456789abcdef',
      width: 1200,
      height: 630,
    },
    ...over,
  };
}
