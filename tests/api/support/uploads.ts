import sharp from 'sharp';
import type { TestApi } from './harness';

/** A flat image of the given size. */
export const flatImage = (width: number, height: number, format: 'png' | 'jpeg' = 'png') => {
  const image = sharp({ create: { width, height, channels: 3, background: '#5b3df5' } });
  return (format === 'png' ? image.png() : image.jpeg()).toBuffer();
};

/**
 * Uploads an image of `assetKind` through a signed URL, as the browser does (with an S3 store: PUT
 * straight to the bucket, then confirmed); answers its public URL.
 */
export async function uploadImage(
  t: TestApi,
  token: string,
  assetKind: string,
  { width = 600, height = 600, format = 'png' as 'png' | 'jpeg' } = {},
): Promise<string> {
  const bytes = await flatImage(width, height, format);
  const objectKey = `${assetKind}-${Math.random().toString(36).slice(2)}.${format === 'png' ? 'png' : 'jpg'}`;
  const query = { mimeType: `image/${format}`, objectKey, assetKind, size: String(bytes.length) };
  const grant = await t.request('GET', `/api/assets/upload-url?${new URLSearchParams(query)}`, { token });
  if (grant.status !== 200) throw new Error(`upload-url answered ${grant.status}`);
  const stored = await storeUpload(t, grant.body, bytes);
  if (stored.status !== 200) throw new Error(`upload answered ${stored.status}: ${await stored.text()}`);
  return grant.body.publicUrl;
}

/**
 * Sends the bytes to an upload grant as the browser does: a PUT to the API, or (S3) a PUT to the
 * bucket with the grant's headers and then POST confirmUrl. Answers the API's answer.
 */
export async function storeUpload(
  t: TestApi,
  grant: { url: string; headers?: Record<string, string>; confirmUrl?: string },
  bytes: Buffer,
): Promise<Response> {
  if (!grant.confirmUrl) return t.app.request(grant.url, { method: 'PUT', body: new Uint8Array(bytes) });
  const put = await fetch(grant.url, { method: 'PUT', headers: grant.headers, body: new Uint8Array(bytes) });
  if (put.status !== 200) throw new Error(`the bucket answered ${put.status}: ${await put.text()}`);
  return t.app.request(grant.confirmUrl, { method: 'POST' });
}
