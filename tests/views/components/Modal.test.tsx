import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { AlertModal, ConfirmModal, Dropdown, Modal } from '../../../src/views/components';

function Harness({
  closeOnOutsideClick,
  onClose = () => {},
}: {
  closeOnOutsideClick?: boolean;
  onClose?: () => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <div>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <Modal
        open={open}
        title="Sign in"
        closeOnOutsideClick={closeOnOutsideClick}
        onClose={() => {
          onClose();
          setOpen(false);
        }}
        footer={
          <>
            <button type="button">Cancel</button>
            <button type="button">Sign In</button>
          </>
        }
      >
        <p>Sign in or register to continue.</p>
        <input aria-label="Email" />
      </Modal>
    </div>
  );
}

function WithInitialFocus() {
  const ref = useRef<HTMLButtonElement>(null);
  return (
    <Modal open title="T" onClose={() => {}} initialFocusRef={ref}>
      <button type="button">First</button>
      <button type="button" ref={ref}>
        Second
      </button>
    </Modal>
  );
}

describe('Modal', () => {
  it('renders nothing when closed', () => {
    render(<Modal open={false} title="Hidden" onClose={() => {}} />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('renders a labelled modal dialog in a portal on document.body', () => {
    const { container } = render(
      <Modal open title="Sign in" description="Register or sign in." onClose={() => {}}>
        body
      </Modal>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Sign in' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.getElementById(dialog.getAttribute('aria-labelledby')!)?.textContent).toBe('Sign in');
    expect(document.getElementById(dialog.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Register or sign in.',
    );
    expect(container.contains(dialog)).toBe(false);
    expect(document.body.contains(dialog)).toBe(true);
  });

  it('closes on Escape', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    render(<Harness onClose={onClose} />);
    await user.click(screen.getByText('Open'));
    expect(screen.getByRole('dialog')).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes with the × button', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    render(<Modal open title="T" onClose={onClose} />);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('ignores an outside click by default', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    render(<Modal open title="T" onClose={onClose} />);
    await user.click(screen.getByTestId('modal-backdrop'));
    expect(onClose).not.toHaveBeenCalled();
  });

  it('closes on an outside click when closeOnOutsideClick, but not on a click inside', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    render(
      <Modal open title="T" onClose={onClose} closeOnOutsideClick>
        <p>Inside</p>
      </Modal>,
    );
    await user.click(screen.getByText('Inside'));
    await user.click(screen.getByRole('dialog'));
    expect(onClose).not.toHaveBeenCalled();
    await user.click(screen.getByTestId('modal-backdrop'));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('moves focus inside on open, traps Tab, and restores focus on close', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const opener = screen.getByText('Open');
    await user.click(opener);

    const dialog = screen.getByRole('dialog');
    const email = screen.getByLabelText('Email');
    expect(document.activeElement).toBe(email);

    // Tab order inside: Close (header), Email, Cancel, Sign In, then back to Close.
    await user.tab();
    expect(document.activeElement).toBe(screen.getByText('Cancel'));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByText('Sign In'));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByText('Sign In'));
    for (let i = 0; i < 6; i++) {
      await user.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }

    await user.keyboard('{Escape}');
    expect(document.activeElement).toBe(opener);
  });

  it('pulls focus back if it escapes the dialog', () => {
    render(
      <>
        <button type="button">Behind</button>
        <Modal open title="T" onClose={() => {}}>
          <button type="button">Inside</button>
        </Modal>
      </>,
    );
    screen.getByText('Behind').focus();
    expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true);
  });

  it('focuses initialFocusRef when given', () => {
    render(<WithInitialFocus />);
    expect(document.activeElement).toBe(screen.getByText('Second'));
  });

  it('locks body scrolling while open and restores it after', async () => {
    const user = userEvent.setup();
    document.body.style.overflow = 'scroll';
    render(<Harness />);
    await user.click(screen.getByText('Open'));
    expect(document.body.style.overflow).toBe('hidden');
    await user.keyboard('{Escape}');
    expect(document.body.style.overflow).toBe('scroll');
    document.body.style.overflow = '';
  });

  it('keeps the lock until the last of two stacked modals closes, and Escape closes only the top one', async () => {
    const user = userEvent.setup();
    const closeOuter = vi.fn();
    const closeInner = vi.fn();
    const { rerender } = render(
      <>
        <Modal open title="Outer" onClose={closeOuter} />
        <Modal open title="Inner" onClose={closeInner} />
      </>,
    );
    await user.keyboard('{Escape}');
    expect(closeInner).toHaveBeenCalledTimes(1);
    expect(closeOuter).not.toHaveBeenCalled();

    rerender(
      <>
        <Modal open title="Outer" onClose={closeOuter} />
        <Modal open={false} title="Inner" onClose={closeInner} />
      </>,
    );
    expect(document.body.style.overflow).toBe('hidden');
    await user.keyboard('{Escape}');
    expect(closeOuter).toHaveBeenCalledTimes(1);

    rerender(
      <>
        <Modal open={false} title="Outer" onClose={closeOuter} />
        <Modal open={false} title="Inner" onClose={closeInner} />
      </>,
    );
    expect(document.body.style.overflow).toBe('');
  });

  it('a dropdown inside a modal takes the first Escape, the modal the second', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    render(
      <Modal open title="Share" onClose={onClose}>
        <Dropdown trigger="More" items={[{ id: 'copy', label: 'Copy link' }]} />
      </Modal>,
    );
    await user.click(screen.getByRole('button', { name: 'More' }));
    expect(screen.getByRole('menu')).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('AlertModal', () => {
  it('shows the message and closes with Done', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    render(<AlertModal open title="Saved" message="Your profile was updated." onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'Saved' });
    expect(dialog.textContent).toContain('Your profile was updated.');
    const done = screen.getByRole('button', { name: 'Done' });
    expect(document.activeElement).toBe(done);
    await user.click(done);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('accepts another button label and closes on Escape', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    render(<AlertModal open title="T" message="M" doneLabel="Got it" onClose={onClose} />);
    expect(screen.getByRole('button', { name: 'Got it' })).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('ConfirmModal', () => {
  it('calls onConfirm and onCancel from its buttons', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(
      <ConfirmModal
        open
        title="Remove card"
        message="Remove this card?"
        onConfirm={onConfirm}
        onCancel={onCancel}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('treats Escape as cancel', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(<ConfirmModal open title="T" message="M" onConfirm={onConfirm} onCancel={onCancel} />);
    await user.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('overrides labels; danger styles the confirm button and starts focus on cancel', () => {
    render(
      <ConfirmModal
        open
        danger
        title="Leave?"
        message="You have unsaved changes."
        confirmLabel="Leave"
        cancelLabel="Stay"
        onConfirm={() => {}}
        onCancel={() => {}}
      />,
    );
    const leave = screen.getByRole('button', { name: 'Leave' });
    expect(leave.className).toContain('vt-button--danger');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Stay' }));
  });

  it('focuses confirm when not dangerous, and loading disables both actions', () => {
    const { rerender } = render(
      <ConfirmModal open title="T" message="M" onConfirm={() => {}} onCancel={() => {}} />,
    );
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Confirm' }));
    rerender(<ConfirmModal open loading title="T" message="M" onConfirm={() => {}} onCancel={() => {}} />);
    const confirm = screen.getByRole('button', { name: 'Confirm' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    expect(confirm.getAttribute('aria-busy')).toBe('true');
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
