import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ToastList } from '../../../src/views/components';

describe('ToastList', () => {
  it('renders the toasts in a polite live region, present even when empty', () => {
    const { rerender } = render(<ToastList toasts={[]} onDismiss={() => {}} />);
    const region = screen.getByRole('region', { name: 'Notifications' });
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(region.children).toHaveLength(0);

    rerender(
      <ToastList
        toasts={[
          { id: 'copy', text: 'Link copied' },
          { id: 'saved', text: 'Profile saved', tone: 'success' },
        ]}
        onDismiss={() => {}}
      />,
    );
    expect(screen.getByRole('region', { name: 'Notifications' })).toBe(region);
    expect(region.textContent).toContain('Link copied');
    expect(region.textContent).toContain('Profile saved');
  });

  it('calls onDismiss with the id of the dismissed toast', async () => {
    const user = userEvent.setup();
    const onDismiss = vi.fn();
    render(
      <ToastList
        toasts={[
          { id: 'a', text: 'First' },
          { id: 'b', text: 'Second' },
        ]}
        onDismiss={onDismiss}
      />,
    );
    const buttons = screen.getAllByRole('button', { name: 'Dismiss notification' });
    expect(buttons).toHaveLength(2);
    await user.click(buttons[1]!);
    expect(onDismiss).toHaveBeenCalledTimes(1);
    expect(onDismiss).toHaveBeenCalledWith('b');
  });
});
