import { ApiError, ClientErrorCode, clientErrorText } from '#domain/apiError';
import type { ImageFacts, ImageJobFile } from '#domain/ports/uploads';
import type { UploadUrlAnswer } from '#domain/responses/system';
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
type Grant = UploadUrlAnswer;
const extension: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif' };

export function uploadService(
  api: Api,
  random = () => crypto.randomUUID().replaceAll('-', '').slice(0, 16),
  send: typeof fetch = (input, init) => fetch(input, init),
) {
  const grant = ({ file, assetKind }: Upload) =>
    api.get('/assets/upload-url', {
      query: {
        mimeType: file.type,
        objectKey: `${assetKind}-${random()}.${extension[file.type] ?? 'bin'}`,
        assetKind,
        size: file.size,
      },
    });
  /** The signed token of an API upload URL ("/api/assets/uploads/{token}"). */
  const token = (url: string) => ({ token: url.slice(url.lastIndexOf('/') + 1) });
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
        return api.post('/assets/uploads/{token}', { params: token(g.confirmUrl) });
      }
      await api.put('/assets/uploads/{token}', {
        params: token(g.url),
        body: upload.file as unknown as Blob,
      });
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
      return api.post('/image-jobs', { body: form });
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
    checkJob: ({ jobId }: { jobId: string }) => api.get('/image-jobs/{jobId}', { params: { jobId } }),
  };
}
