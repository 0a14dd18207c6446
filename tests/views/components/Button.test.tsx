import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnchorHTMLAttributes } from 'react';
import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Button, Spinner } from '../../../src/views/components';

/** Stands in for a router Link: takes `to`, navigates on click. */
function FakeLink({
  to,
  navigate,
  ...rest
}: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string; navigate: (to: string) => void }) {
  return (
    <a
      href={to}
      {...rest}
      onClick={(event) => {
        event.preventDefault();
        rest.onClick?.(event);
        navigate(to);
      }}
    />
  );
}

describe('Button', () => {
  it('is a type="button" primary md button by default', async () => {
    const user = userEvent.setup();
    const onClick = vi.fn();
    render(<Button onClick={onClick}>Buy now</Button>);
    const button = screen.getByRole('button', { name: 'Buy now' }) as HTMLButtonElement;
    expect(button.type).toBe('button');
    expect(button.className).toContain('vt-button--primary');
    expect(button.className).toContain('vt-button--md');
    await user.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('applies variant, size and type', () => {
    render(
      <Button variant="danger" size="lg" type="submit">
        Delete
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Delete' }) as HTMLButtonElement;
    expect(button.className).toContain('vt-button--danger');
    expect(button.className).toContain('vt-button--lg');
    expect(button.type).toBe('submit');
  });

  it('while loading: shows a spinner, is aria-busy and disabled, and ignores clicks', async () => {
    const user = userEvent.setup();
    const onClick = vi.fn();
    const { container } = render(
      <Button loading onClick={onClick}>
        Save
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(container.querySelector('.vt-spinner')).not.toBeNull();
    await user.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('renders a link when given href', () => {
    render(<Button href="/marketplace">Marketplace</Button>);
    const link = screen.getByRole('link', { name: 'Marketplace' });
    expect(link.tagName).toBe('A');
    expect(link.getAttribute('href')).toBe('/marketplace');
  });

  it('renders any component through as, e.g. a router link', async () => {
    const user = userEvent.setup();
    const navigate = vi.fn();
    render(
      <Button as={FakeLink} to="/storefronts" navigate={navigate} variant="secondary">
        Storefronts
      </Button>,
    );
    const link = screen.getByRole('link', { name: 'Storefronts' });
    expect(link.className).toContain('vt-button--secondary');
    await user.click(link);
    expect(navigate).toHaveBeenCalledWith('/storefronts');
  });

  it('a disabled link is aria-disabled and does not run its onClick', async () => {
    const user = userEvent.setup();
    const onClick = vi.fn();
    render(
      <Button href="/x" disabled onClick={onClick}>
        Go
      </Button>,
    );
    const link = screen.getByRole('link', { name: 'Go' });
    expect(link.getAttribute('aria-disabled')).toBe('true');
    await user.click(link);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('forwards ref to the button', () => {
    const ref = createRef<HTMLButtonElement>();
    render(<Button ref={ref}>Ref</Button>);
    expect(ref.current?.tagName).toBe('BUTTON');
  });
});

describe('Spinner', () => {
  it('is a status named "Loading" by default, or a custom label', () => {
    const { rerender } = render(<Spinner />);
    expect(screen.getByRole('status', { name: 'Loading' })).toBeTruthy();
    rerender(<Spinner label="Loading items" size="lg" />);
    expect(screen.getByRole('status', { name: 'Loading items' }).className).toContain('vt-spinner--lg');
  });

  it('is hidden from assistive technology when decorative', () => {
    const { container } = render(<Spinner decorative size={20} />);
    expect(screen.queryByRole('status')).toBeNull();
    const spinner = container.querySelector('.vt-spinner') as HTMLElement;
    expect(spinner.getAttribute('aria-hidden')).toBe('true');
    expect(spinner.style.getPropertyValue('--vt-spinner-size')).toBe('20px');
  });
});
