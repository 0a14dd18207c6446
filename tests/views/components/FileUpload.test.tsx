import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FileUpload, fileMatchesAccept, formatBytes } from '../../../src/views/components';

function image(name = 'logo.png', bytes = 2048, type = 'image/png'): File {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: bytes });
  return file;
}

function drop(zone: HTMLElement, file: File) {
  fireEvent.drop(zone, { dataTransfer: { files: [file], types: ['Files'] } });
}

describe('FileUpload', () => {
  const createObjectURL = vi.fn((file: Blob) => `blob:preview/${(file as File).name}`);
  const revokeObjectURL = vi.fn();

  beforeEach(() => {
    // jsdom has no object URLs.
    Object.assign(URL, { createObjectURL, revokeObjectURL });
  });

  afterEach(() => {
    createObjectURL.mockClear();
    revokeObjectURL.mockClear();
  });

  it('accepts a dropped image: calls onFile, shows the file name and a preview', () => {
    const onFile = vi.fn();
    render(<FileUpload label="Logo" accept="image/*" maxBytes={5 * 1024 * 1024} onFile={onFile} />);
    const file = image('logo.png', 2048);
    drop(screen.getByTestId('file-drop-zone'), file);

    expect(onFile).toHaveBeenCalledWith(file);
    expect(screen.getByTestId('file-name').textContent).toContain('logo.png');
    const preview = screen.getByRole('img', { name: 'Preview of logo.png' });
    expect(preview.getAttribute('src')).toBe('blob:preview/logo.png');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('rejects a file over maxBytes with a too-large rejection and a message', () => {
    const onFile = vi.fn();
    const onReject = vi.fn();
    render(
      <FileUpload
        label="Banner"
        accept="image/*"
        maxBytes={1024 * 1024}
        onFile={onFile}
        onReject={onReject}
      />,
    );
    const big = image('banner.jpg', 3 * 1024 * 1024, 'image/jpeg');
    drop(screen.getByTestId('file-drop-zone'), big);

    expect(onFile).not.toHaveBeenCalled();
    expect(onReject).toHaveBeenCalledWith(expect.objectContaining({ file: big, code: 'too-large' }));
    expect(screen.getByRole('alert').textContent).toBe('This file is too large. The limit is 1 MB.');
    expect(screen.queryByTestId('file-name')).toBeNull();
  });

  it('rejects a file of the wrong type with a wrong-type rejection', () => {
    const onFile = vi.fn();
    const onReject = vi.fn();
    render(<FileUpload label="Logo" accept=".png,image/jpeg" onFile={onFile} onReject={onReject} />);
    const pdf = new File(['%PDF'], 'terms.pdf', { type: 'application/pdf' });
    drop(screen.getByTestId('file-drop-zone'), pdf);

    expect(onFile).not.toHaveBeenCalled();
    expect(onReject).toHaveBeenCalledWith(expect.objectContaining({ file: pdf, code: 'wrong-type' }));
    expect(screen.getByRole('alert').textContent).toBe('This file type is not supported. Use PNG, JPEG.');
  });

  it('opens the picker from the Browse button and accepts the chosen file', async () => {
    const user = userEvent.setup();
    const onFile = vi.fn();
    render(<FileUpload label="Logo" accept="image/*" onFile={onFile} />);
    const input = screen.getByTestId('file-input') as HTMLInputElement;
    const pickerOpened = vi.fn();
    input.addEventListener('click', pickerOpened);

    const browse = screen.getByRole('button', { name: 'Browse Logo' });
    browse.focus();
    await user.keyboard('{Enter}');
    expect(pickerOpened).toHaveBeenCalledTimes(1);

    const file = image('avatar.webp', 100, 'image/webp');
    await user.upload(input, file);
    expect(onFile).toHaveBeenCalledWith(file);
    expect(screen.getByTestId('file-name').textContent).toContain('avatar.webp');
  });

  it('applies the accept filter to the browse path too', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const onFile = vi.fn();
    const onReject = vi.fn();
    render(<FileUpload label="Logo" accept="image/*" onFile={onFile} onReject={onReject} />);
    await user.upload(
      screen.getByTestId('file-input') as HTMLInputElement,
      new File(['a'], 'a.txt', { type: 'text/plain' }),
    );
    expect(onFile).not.toHaveBeenCalled();
    expect(onReject).toHaveBeenCalledWith(expect.objectContaining({ code: 'wrong-type' }));
  });

  it('highlights the zone while a file is dragged over it', () => {
    render(<FileUpload label="Logo" onFile={() => {}} />);
    const zone = screen.getByTestId('file-drop-zone');
    const dataTransfer = { types: ['Files'], files: [], dropEffect: 'none' };
    fireEvent.dragEnter(zone, { dataTransfer });
    fireEvent.dragOver(zone, { dataTransfer });
    expect(zone.className).toContain('vt-upload__zone--active');
    fireEvent.dragLeave(zone, { dataTransfer });
    expect(zone.className).not.toContain('vt-upload__zone--active');
  });

  it('shows an error given by the parent with role alert', () => {
    render(<FileUpload label="Logo" onFile={() => {}} error="Upload failed, try again" />);
    expect(screen.getByRole('alert').textContent).toBe('Upload failed, try again');
    expect(screen.getByTestId('file-drop-zone').className).toContain('vt-upload__zone--invalid');
  });

  it('shows a default hint from accept and maxBytes, and previews an existing URL', () => {
    render(
      <FileUpload
        label="Banner"
        accept="image/*"
        maxBytes={10 * 1024 * 1024}
        previewUrl="/uploads/banner.jpg"
        onFile={() => {}}
      />,
    );
    expect(screen.getByText('Images, up to 10 MB')).toBeTruthy();
    const preview = screen.getByTestId('file-drop-zone').querySelector('img');
    expect(preview?.getAttribute('src')).toBe('/uploads/banner.jpg');
  });

  it('Remove clears the chosen file and calls onRemove', async () => {
    const user = userEvent.setup();
    const onRemove = vi.fn();
    render(<FileUpload label="Logo" onFile={() => {}} onRemove={onRemove} />);
    drop(screen.getByTestId('file-drop-zone'), image());
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    expect(onRemove).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('file-name')).toBeNull();
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:preview/logo.png');
  });

  it('ignores drops while disabled', () => {
    const onFile = vi.fn();
    render(<FileUpload label="Logo" disabled onFile={onFile} />);
    drop(screen.getByTestId('file-drop-zone'), image());
    expect(onFile).not.toHaveBeenCalled();
  });
});

describe('fileMatchesAccept and formatBytes', () => {
  it('matches extensions, exact types and wildcards', () => {
    const png = { name: 'A.PNG', type: 'image/png' };
    expect(fileMatchesAccept(png, undefined)).toBe(true);
    expect(fileMatchesAccept(png, '.png')).toBe(true);
    expect(fileMatchesAccept(png, 'image/*')).toBe(true);
    expect(fileMatchesAccept(png, 'image/jpeg, .gif')).toBe(false);
    expect(fileMatchesAccept({ name: 'clip.mp4', type: 'video/mp4' }, 'image/*,video/mp4')).toBe(true);
  });

  it('formats sizes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5 MB');
    expect(formatBytes(15 * 1024 * 1024)).toBe('15 MB');
  });
});
