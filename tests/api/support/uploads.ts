import sharp from 'sharp';
import type { TestApi } from './harness';

/** A flat image of the given size. */
export const flatImage = (width: number, height: number, format: 'png' | 'jpeg' = 'png') => {
  const image = sharp({ create: { width, height, channels: 3, background: '#5b3df5' } });
  return (format === 'png' ? image.png() : image.jpeg()).toBuffer();
};

/** Uploads an image of `assetKind` through a signed URL, as the browser does; answers its public URL. */
export async function uploadImage(
  t: TestApi,
  token: string,
  assetKind: string,
  { width = 600, height = 600, format = 'png' as 'png' | 'jpeg' } = {},
): Promise<string> {
  const objectKey = `${assetKind}-${Math.random().toString(36).slice(2)}.${format === 'png' ? 'png' : 'jpg'}`;
  const grant = await t.request(
    'GET',
    `/api/assets/upload-url?${new URLSearchParams({ mimeType: `image/${format}`, objectKey, assetKind })}`,
    { token },
  );
  if (grant.status !== 200) throw new Error(`upload-url answered ${grant.status}`);
  const stored = await t.app.request(grant.body.url, {
    method: 'PUT',
    body: new Uint8Array(await flatImage(width, height, format)),
  });
  if (stored.status !== 200) throw new Error(`upload answered ${stored.status}: ${await stored.text()}`);
  return grant.body.publicUrl;
}
