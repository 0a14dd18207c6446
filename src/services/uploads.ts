import { ApiError, ClientErrorCode, clientErrorText } from '#domain/apiError';
import type { CheckJobOutput, ImageFacts, ImageJobFile } from '#domain/ports/uploads';
import type { Api } from './api';

/**
 * Uploads: a signed URL from `assets/upload-url`, then the file PUT to it; or the
 * image-optimization job (quality 85, pngquant for PNG, mozjpeg otherwise) that writes the
 * optimized file to that URL, polled by the imageJob machine. With an S3 store the signed URL is
 * the bucket's (a presigned PUT that takes exactly this file's type and size): the file goes there
 * with the headers the grant names, and the API is told by POSTing its `confirmUrl` (a plain upload)
 * or by starting the job with it, without the file.
 */
type Upload = { file: ImageJobFile; assetKind: string };
type Grant = { url: string; publicUrl: string; headers?: Record<string, string>; confirmUrl?: string };
const extension: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif' };

export function uploadService(
  api: Api,
  random = () => crypto.randomUUID().replaceAll('-', '').slice(0, 16),
  send: typeof fetch = (input, init) => fetch(input, init),
) {
  const grant = ({ file, assetKind }: Upload) =>
    api.get<Grant>('assets/upload-url', {
      mimeType: file.type,
      objectKey: `${assetKind}-${random()}.${extension[file.type] ?? 'bin'}`,
      assetKind,
      size: file.size,
    });
  /** The signed URL relative to the API base ("/api/assets/uploads/…" → "assets/uploads/…"). */
  const relative = (url: string) => url.replace(/^\/api\//, '');
  /** PUTs the file straight to the store; a refusal or no answer is a connection error. */
  async function toStore(g: Grant, file: ImageJobFile) {
    const res = await send(g.url, { method: 'PUT', headers: g.headers, body: file as unknown as Blob }).catch(
      () => null,
    );
    if (!res?.ok) {
      const code = ClientErrorCode.NETWORK_FAILURE;
      throw new ApiError(res?.status ?? 0, { code, message: clientErrorText({ code }) });
    }
  }
  return {
    async plainUpload(upload: Upload): Promise<{ url: string }> {
      const g = await grant(upload);
      if (g.confirmUrl) {
        await toStore(g, upload.file);
        return api.post<{ url: string }>(relative(g.confirmUrl));
      }
      await api.put(relative(g.url), upload.file as unknown as Blob);
      return { url: g.publicUrl };
    },
    async startJob(upload: Upload): Promise<{ jobId: string }> {
      const g = await grant(upload);
      const format = extension[upload.file.type] === 'png' ? 'png' : 'jpeg';
      const form = new FormData();
      if (g.confirmUrl) await toStore(g, upload.file);
      else form.set('file', upload.file as unknown as Blob, upload.file.name);
      form.set('uploadUrl', g.confirmUrl ?? g.url);
      form.set('inputFormat', format);
      form.set('outputFormat', format);
      form.set('optimizeAlgo', format === 'png' ? 'pngquant' : 'mozjpeg');
      form.set('quality', '85');
      return api.post<{ jobId: string }>('image-jobs', undefined, { body: form });
    },
    /** An image file's format, size and dimensions, read in the browser before it is sent. */
    async inspectImage(file: ImageJobFile): Promise<ImageFacts> {
      const format = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/gif': 'gif' }[file.type];
      if (!format) return { format: undefined, bytes: file.size, width: undefined, height: undefined };
      const bitmap = await createImageBitmap(file as unknown as Blob);
      const facts = { format, bytes: file.size, width: bitmap.width, height: bitmap.height };
      bitmap.close();
      return facts;
    },
    checkJob: ({ jobId }: { jobId: string }) =>
      api.get<CheckJobOutput>(`image-jobs/${encodeURIComponent(jobId)}`),
  };
}
