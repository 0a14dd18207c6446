import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Dropdown, type DropdownItem } from '../../../src/views/components';

function userMenu(log: string[]): DropdownItem[] {
  return [
    { id: 'profile', label: 'Profile', onSelect: () => log.push('profile') },
    { id: 'settings', label: 'Settings', onSelect: () => log.push('settings') },
    { id: 'create', label: 'Create Storefront', disabled: true },
    { id: 'logout', label: 'Logout', danger: true, separator: true, onSelect: () => log.push('logout') },
  ];
}

function setup(extra: Partial<Parameters<typeof Dropdown>[0]> = {}) {
  const log: string[] = [];
  const onSelect = vi.fn();
  const user = userEvent.setup();
  render(
    <div>
      <Dropdown trigger="Account" label="User menu" items={userMenu(log)} onSelect={onSelect} {...extra} />
      <button type="button">Elsewhere</button>
    </div>,
  );
  const trigger = screen.getByRole('button', { name: 'User menu' });
  return { log, onSelect, user, trigger };
}

function Controlled({ changes }: { changes: boolean[] }) {
  const [open, setOpen] = useState(false);
  return (
    <Dropdown
      trigger="Menu"
      items={[{ id: 'a', label: 'A' }]}
      open={open}
      onOpenChange={(next) => {
        changes.push(next);
        setOpen(next);
      }}
    />
  );
}

describe('Dropdown', () => {
  it('is a closed menu button until clicked; opening shows a menu and focuses the first item', async () => {
    const { user, trigger } = setup();
    expect(trigger.getAttribute('aria-haspopup')).toBe('menu');
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('menu')).toBeNull();

    await user.click(trigger);
    const menu = screen.getByRole('menu');
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    expect(trigger.getAttribute('aria-controls')).toBe(menu.id);
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'Profile',
      'Settings',
      'Create Storefront',
      'Logout',
    ]);
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Profile' }));

    await user.click(trigger);
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('moves with ArrowDown/ArrowUp (wrapping, skipping disabled items) and activates with Enter', async () => {
    const { user, trigger, log, onSelect } = setup();
    await user.click(trigger);
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Settings' }));
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Logout' }));
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Profile' }));
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Logout' }));
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Settings' }));

    await user.keyboard('{Enter}');
    expect(log).toEqual(['settings']);
    expect(onSelect).toHaveBeenCalledWith('settings');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(trigger);
  });

  it('opens from the keyboard: ArrowDown to the first item, ArrowUp to the last', async () => {
    const { user, trigger } = setup();
    trigger.focus();
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Profile' }));
    await user.keyboard('{Escape}');
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Logout' }));
    await user.keyboard(' ');
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('opens with Enter on the trigger', async () => {
    const { user, trigger } = setup();
    trigger.focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('menu')).toBeTruthy();
  });

  it('closes on Escape and returns focus to the trigger', async () => {
    const { user, trigger, onSelect } = setup();
    await user.click(trigger);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(trigger);
    expect(onSelect).not.toHaveBeenCalled();
  });

  it('closes on an outside click, but not on a click inside the menu that hits nothing', async () => {
    const { user, trigger, onSelect } = setup();
    await user.click(trigger);
    await user.click(screen.getByRole('menu'));
    expect(screen.getByRole('menu')).toBeTruthy();
    await user.click(screen.getByText('Elsewhere'));
    expect(screen.queryByRole('menu')).toBeNull();
    expect(onSelect).not.toHaveBeenCalled();
  });

  it('closes on item click; a disabled item does nothing', async () => {
    const { user, trigger, log, onSelect } = setup();
    await user.click(trigger);
    await user.click(screen.getByRole('menuitem', { name: 'Create Storefront' }));
    expect(onSelect).not.toHaveBeenCalled();
    expect(screen.getByRole('menu')).toBeTruthy();
    await user.click(screen.getByRole('menuitem', { name: 'Logout' }));
    expect(log).toEqual(['logout']);
    expect(onSelect).toHaveBeenCalledWith('logout');
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('Tab closes the menu', async () => {
    const { user, trigger } = setup();
    await user.click(trigger);
    await user.tab();
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('can be controlled through open/onOpenChange (e.g. the ui machine)', async () => {
    const user = userEvent.setup();
    const changes: boolean[] = [];
    render(<Controlled changes={changes} />);
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    expect(screen.getByRole('menu')).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(changes).toEqual([true, false]);
  });

  it('renders href items as links and custom items through renderItem', async () => {
    const user = userEvent.setup();
    const go = vi.fn();
    render(
      <Dropdown
        trigger="Nav"
        items={[
          { id: 'home', label: 'Home', href: '/' },
          { id: 'market', label: 'Marketplace' },
        ]}
        renderItem={(item, props) =>
          item.id === 'market' ? (
            <a
              href="/marketplace"
              {...props}
              onClick={(event) => {
                event.preventDefault();
                props.onClick(event);
                go(item.id);
              }}
            />
          ) : (
            <a href={item.href} {...props} />
          )
        }
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Nav' }));
    const items = screen.getAllByRole('menuitem');
    expect(items.map((item) => item.getAttribute('href'))).toEqual(['/', '/marketplace']);
    await user.keyboard('{ArrowDown}{Enter}');
    expect(go).toHaveBeenCalledWith('market');
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
