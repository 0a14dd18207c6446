import { act, fireEvent, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { connectAvatarUpload } from '../machines/avatarUpload';
import { AvatarEditorView } from '../src/views/profile/AvatarEditor';
import { avatarUploadModel } from './avatarUpload.model';
import { flushCoverage } from './coverage-store';
import { clickFirst } from './dom';
import { coveringPaths, type PathStep, runPath } from './harness';
import { renderWithRouter } from './router';

/** Avatar paths through the editor: the file input ("Change avatar") and "Remove avatar". */
async function perform(step: PathStep) {
  const e = step.event as { type: string; file?: { name: string; type: string; size: number } };
  switch (e.type) {
    case 'avatar.choose': {
      const input = screen.getByLabelText<HTMLInputElement>('Change avatar', { selector: 'input' });
      if (input.disabled) throw new Error('"Change avatar" is disabled');
      const file = new File(['x'.repeat(10)], e.file!.name, { type: e.file!.type });
      fireEvent.change(input, { target: { files: [file] } });
      return true;
    }
    case 'avatar.remove':
      return clickFirst('Remove avatar');
    default:
      return false;
  }
}

function check(expected: AnyMachineSnapshot) {
  const view = connectAvatarUpload(expected as never, () => {});
  const image = document.querySelector('.vt-avatar')!;
  expect(image.getAttribute('data-kind')).toBe(view.avatarUrl ? 'image' : 'identicon');
  expect(screen.getByLabelText<HTMLInputElement>('Change avatar', { selector: 'input' }).disabled).toBe(
    !view.canChoose,
  );
  expect(!!screen.queryByRole('button', { name: 'Remove avatar' })).toBe(view.canRemove);
  expect(screen.getByRole('status').textContent).toBe(
    view.status ?? 'Square PNG, GIF or JPEG, at least 256×256, up to 1 MB.',
  );
  expect(screen.queryAllByRole('alert').map((a) => a.textContent)).toEqual(view.error ? [view.error] : []);
}

describe('avatar paths through the editor', () => {
  for (const path of coveringPaths(avatarUploadModel)) {
    it(path.description, () =>
      runPath(avatarUploadModel, path, {
        mount: (actor: AnyActorRef) =>
          renderWithRouter(() => (
            <AvatarEditorView actor={actor as never} seed="u1" alt="Ada Lovelace" size={112} />
          )),
        perform,
        check,
        wrap: (fn) => act(fn),
      }),
    );
  }
  afterAll(() => flushCoverage('view'));
});
