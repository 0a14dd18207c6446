import {
  type ChangeEvent,
  type DragEvent,
  type MouseEvent,
  type ReactNode,
  useId,
  useRef,
  useState,
} from 'react';
import { Button } from './Button';
import { cx } from './cx';
import { FileIcon, UploadIcon } from './fieldIcons';
import { fileMatchesAccept, formatBytes } from './fileAccept';
import { useObjectUrl } from './useObjectUrl';

export type FileRejectionCode = 'wrong-type' | 'too-large';

export interface FileRejection {
  file: File;
  code: FileRejectionCode;
  /** A sentence for the user, e.g. "This file is too large. The limit is 5 MB." */
  message: string;
}

export interface FileUploadProps {
  /** Field label (e.g. "Logo"). */
  label: ReactNode;
  /** Called with an accepted file (type and size checked). */
  onFile: (file: File) => void;
  /** Called when a dropped or chosen file is refused. */
  onReject?: (rejection: FileRejection) => void;
  /** Same syntax as the input's accept attribute: ".png,image/jpeg,image/*". */
  accept?: string;
  /** Largest accepted size in bytes. */
  maxBytes?: number;
  /** Error from outside (e.g. the upload failed); replaces the rejection message. */
  error?: ReactNode;
  /** Help text; default: the accepted types and the size limit. */
  hint?: ReactNode;
  /** The chosen file, when the parent keeps it; otherwise the component remembers the last accepted file. */
  file?: File | null;
  /** URL of an already uploaded image to preview when no file is chosen (e.g. the current logo). */
  previewUrl?: string;
  /** Shows a "Remove" button next to the chosen file. */
  onRemove?: () => void;
  /** Prompt inside the zone; default "Drag and drop a file here, or". */
  prompt?: ReactNode;
  /** Label of the browse button; default "Browse". */
  browseLabel?: string;
  disabled?: boolean;
  className?: string;
}

function describeAccept(accept: string | undefined): string | null {
  if (!accept) return null;
  const labels = accept
    .split(',')
    .map((token) => token.trim())
    .filter(Boolean)
    .map((token) => {
      if (token === 'image/*') return 'images';
      if (token === 'video/*') return 'videos';
      if (token.startsWith('.')) return token.slice(1).toUpperCase();
      return (token.split('/')[1] ?? token).toUpperCase();
    });
  return Array.from(new Set(labels)).join(', ');
}

/** The help text of the accepted types and the size limit ("Images, up to 5 MB"), if any. */
function defaultHint(accept: string | undefined, maxBytes: number | undefined): string | null {
  const text = [describeAccept(accept), maxBytes !== undefined ? `up to ${formatBytes(maxBytes)}` : null]
    .filter(Boolean)
    .join(', ');
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : null;
}

/** Why `file` is refused: a type `accept` does not take, or a size over `maxBytes`; null when accepted. */
function checkFile(
  file: File,
  accept: string | undefined,
  maxBytes: number | undefined,
): FileRejection | null {
  if (!fileMatchesAccept(file, accept)) {
    const allowed = describeAccept(accept);
    return {
      file,
      code: 'wrong-type',
      message: `This file type is not supported.${allowed ? ` Use ${allowed}.` : ''}`,
    };
  }
  if (maxBytes !== undefined && file.size > maxBytes)
    return {
      file,
      code: 'too-large',
      message: `This file is too large. The limit is ${formatBytes(maxBytes)}.`,
    };
  return null;
}

/**
 * Dragging files over the zone: `dragging` while files are over it (entering and leaving its
 * children counted), and the dropped file handed to `take`. Answers the zone's handlers.
 */
function useFileDrag(disabled: boolean, take: (file: File | undefined) => void) {
  const dragDepth = useRef(0);
  const [dragging, setDragging] = useState(false);
  const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');
  const handlers = {
    onDragEnter: (event: DragEvent<HTMLDivElement>) => {
      if (disabled || !hasFiles(event)) return;
      event.preventDefault();
      dragDepth.current++;
      setDragging(true);
    },
    onDragOver: (event: DragEvent<HTMLDivElement>) => {
      if (disabled || !hasFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
      if (!dragging) setDragging(true);
    },
    onDragLeave: () => {
      dragDepth.current = Math.max(0, dragDepth.current - 1);
      if (dragDepth.current === 0) setDragging(false);
    },
    onDrop: (event: DragEvent<HTMLDivElement>) => {
      event.preventDefault();
      dragDepth.current = 0;
      setDragging(false);
      take(event.dataTransfer?.files?.[0]);
    },
  };
  return { dragging, handlers };
}

/**
 * The file shown: the parent's `file` when it keeps one, else the last accepted. A file refused
 * (checkFile) leaves it and sets `rejection`, the sentence shown.
 */
function useChosenFile({ file, accept, maxBytes, disabled = false, onFile, onReject }: FileUploadProps) {
  const [lastAccepted, setLastAccepted] = useState<File | null>(null);
  const [rejection, setRejection] = useState<string | null>(null);
  const take = (candidate: File | undefined) => {
    if (!candidate || disabled) return;
    const refused = checkFile(candidate, accept, maxBytes);
    if (refused) {
      setRejection(refused.message);
      onReject?.(refused);
      return;
    }
    setRejection(null);
    setLastAccepted(candidate);
    onFile(candidate);
  };
  const forget = () => {
    setLastAccepted(null);
    setRejection(null);
  };
  return { shownFile: file !== undefined ? file : lastAccepted, rejection, take, forget };
}

/**
 * A drop zone for drag and drop, with a "Browse" button. Checks the type against
 * `accept` and the size against `maxBytes`; shows the chosen file's name and, for images, a preview.
 * The whole zone opens the file picker on click; the button is the keyboard path.
 */
export function FileUpload(props: FileUploadProps) {
  const {
    label,
    accept,
    maxBytes,
    error,
    hint,
    previewUrl,
    onRemove,
    prompt = 'Drag and drop a file here, or',
    browseLabel = 'Browse',
    disabled = false,
    className,
  } = props;
  const baseId = useId();
  const labelId = `${baseId}-label`;
  const browseId = `${baseId}-browse`;
  const hintId = `${baseId}-hint`;
  const errorId = `${baseId}-error`;
  const inputRef = useRef<HTMLInputElement>(null);
  const { shownFile, rejection, take, forget } = useChosenFile(props);
  const objectUrl = useObjectUrl(shownFile);
  const preview = objectUrl ?? (shownFile ? undefined : previewUrl);

  const hintText = hint ?? defaultHint(accept, maxBytes);
  const errorText = error ?? rejection;
  const hasError = errorText !== null && errorText !== undefined && errorText !== false && errorText !== '';

  const { dragging, handlers: dragHandlers } = useFileDrag(disabled, take);

  const openPicker = () => {
    if (!disabled) inputRef.current?.click();
  };

  const onInputChange = (event: ChangeEvent<HTMLInputElement>) => {
    take(event.target.files?.[0]);
    // Choosing the same file again must fire change again.
    event.target.value = '';
  };

  const onZoneClick = (event: MouseEvent<HTMLDivElement>) => {
    // Buttons inside the zone (browse, remove) do their own thing.
    if ((event.target as Element).closest('button')) return;
    openPicker();
  };

  const onBrowseClick = (event: MouseEvent<HTMLButtonElement>) => {
    event.stopPropagation();
    openPicker();
  };

  const onRemoveClick = (event: MouseEvent<HTMLButtonElement>) => {
    event.stopPropagation();
    forget();
    onRemove?.();
  };

  const describedBy =
    [hintText ? hintId : null, hasError ? errorId : null].filter(Boolean).join(' ') || undefined;

  return (
    <div className={cx('vt-field', 'vt-upload', className)}>
      <span id={labelId} className="vt-field__label">
        {label}
      </span>
      {/* biome-ignore lint/a11y: the click is a mouse convenience; the browse button inside is the keyboard path. */}
      <div
        data-testid="file-drop-zone"
        className={cx(
          'vt-upload__zone',
          dragging && 'vt-upload__zone--active',
          hasError && 'vt-upload__zone--invalid',
          disabled && 'vt-upload__zone--disabled',
          (shownFile || preview) && 'vt-upload__zone--filled',
        )}
        onClick={onZoneClick}
        {...dragHandlers}
      >
        <ChosenFile file={shownFile} preview={preview} />
        <div className="vt-upload__text">
          {shownFile ? <FileName file={shownFile} /> : null}
          <p className="vt-upload__prompt">{shownFile ? 'Drop another file to replace it, or' : prompt}</p>
          <div className="vt-upload__actions">
            <Button
              id={browseId}
              variant="secondary"
              size="sm"
              onClick={onBrowseClick}
              disabled={disabled}
              aria-labelledby={`${browseId} ${labelId}`}
              aria-describedby={describedBy}
            >
              {browseLabel}
            </Button>
            {onRemove && (shownFile || preview) ? (
              <Button variant="ghost" size="sm" onClick={onRemoveClick} disabled={disabled}>
                Remove
              </Button>
            ) : null}
          </div>
        </div>
      </div>
      <input
        ref={inputRef}
        type="file"
        accept={accept}
        hidden
        tabIndex={-1}
        aria-labelledby={labelId}
        disabled={disabled}
        onChange={onInputChange}
        data-testid="file-input"
      />
      {hintText ? (
        <p id={hintId} className="vt-field__hint">
          {hintText}
        </p>
      ) : null}
      {hasError ? (
        <p id={errorId} className="vt-field__error" role="alert">
          {errorText}
        </p>
      ) : null}
    </div>
  );
}

/** The chosen image's preview (or the uploaded one's), else an icon of a chosen file or of uploading. */
function ChosenFile({ file, preview }: { file: File | null; preview: string | undefined }) {
  return preview ? (
    <img className="vt-upload__preview" src={preview} alt={file ? `Preview of ${file.name}` : ''} />
  ) : (
    <span className="vt-upload__icon">{file ? <FileIcon size={28} /> : <UploadIcon size={28} />}</span>
  );
}

/** The chosen file's name and size. */
function FileName({ file }: { file: File }) {
  return (
    <p className="vt-upload__file" data-testid="file-name">
      <span className="vt-upload__file-name">{file.name}</span>
      <span className="vt-upload__file-size">{formatBytes(file.size)}</span>
    </p>
  );
}
