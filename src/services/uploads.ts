import type { CheckJobOutput, ImageFacts, ImageJobFile } from '#domain/ports/uploads';
import type { Api } from './api';

/**
 * Uploads: a signed URL from `assets/upload-url`, then the file PUT to it; or the
 * image-optimization job (quality 85, pngquant for PNG, mozjpeg otherwise) that writes the
 * optimized file to that URL, polled by the imageJob machine.
 */
type Upload = { file: ImageJobFile; assetKind: string };
const extension: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif' };

export function uploadService(api: Api, random = () => crypto.randomUUID().replaceAll('-', '').slice(0, 16)) {
  const grant = ({ file, assetKind }: Upload) =>
    api.get<{ url: string; publicUrl: string }>('assets/upload-url', {
      mimeType: file.type,
      objectKey: `${assetKind}-${random()}.${extension[file.type] ?? 'bin'}`,
      assetKind,
    });
  /** The signed URL relative to the API base ("/api/assets/uploads/…" → "assets/uploads/…"). */
  const relative = (url: string) => url.replace(/^\/api\//, '');
  return {
    async plainUpload(upload: Upload): Promise<{ url: string }> {
      const g = await grant(upload);
      await api.put(relative(g.url), upload.file as unknown as Blob);
      return { url: g.publicUrl };
    },
    async startJob(upload: Upload): Promise<{ jobId: string }> {
      const g = await grant(upload);
      const format = extension[upload.file.type] === 'png' ? 'png' : 'jpeg';
      const form = new FormData();
      form.set('file', upload.file as unknown as Blob, upload.file.name);
      form.set('uploadUrl', g.url);
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
export type UploadService = ReturnType<typeof uploadService>;
