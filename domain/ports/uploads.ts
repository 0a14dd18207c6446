/**
 * What the browser's upload service supplies to the image machines: the facts of a chosen image and an image job's answers.
 */

/** What the browser reads of an image file before it is sent. */
export type { ImageFacts } from '../assets';

export interface ImageJobFile {
  name: string;
  type: string;
  size: number;
}

export type ImageJobStatus = 'pending' | 'complete' | 'fail';

export interface CheckJobOutput {
  status: ImageJobStatus;
  url?: string;
}
