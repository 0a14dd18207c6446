import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { type TabItem, Tabs } from '../../../src/views/components';

type Section = 'account' | 'security' | 'wallet' | 'payment';

const settingsTabs: TabItem<Section>[] = [
  { value: 'account', label: 'Account' },
  { value: 'security', label: 'Security' },
  { value: 'wallet', label: 'Wallet' },
  { value: 'payment', label: 'Payment' },
];

function Settings({
  onChange = () => {},
  tabs = settingsTabs,
}: {
  onChange?: (v: Section) => void;
  tabs?: TabItem<Section>[];
}) {
  const [value, setValue] = useState<Section>('account');
  return (
    <Tabs
      label="Settings"
      tabs={tabs}
      value={value}
      onChange={(next) => {
        onChange(next);
        setValue(next);
      }}
    >
      <p>Panel of {value}</p>
    </Tabs>
  );
}

describe('Tabs', () => {
  it('renders a labelled tablist, tabs with aria-selected and a tabpanel labelled by the selected tab', () => {
    render(<Settings />);
    expect(screen.getByRole('tablist', { name: 'Settings' })).toBeTruthy();
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((tab) => tab.getAttribute('aria-selected'))).toEqual(['true', 'false', 'false', 'false']);
    expect(tabs.map((tab) => tab.tabIndex)).toEqual([0, -1, -1, -1]);
    const panel = screen.getByRole('tabpanel', { name: 'Account' });
    expect(panel.textContent).toBe('Panel of account');
    expect(tabs[0]!.getAttribute('aria-controls')).toBe(panel.id);
  });

  it('moves focus with ArrowRight/ArrowLeft, wrapping, without selecting', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Settings onChange={onChange} />);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Account' }));

    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Security' }));
    await user.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Account' }));
    await user.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Payment' }));
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Account' }));
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Payment' }));
    expect(onChange).not.toHaveBeenCalled();
  });

  it('activates the focused tab with Enter and with Space', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Settings onChange={onChange} />);
    await user.tab();
    await user.keyboard('{ArrowRight}{Enter}');
    expect(onChange).toHaveBeenLastCalledWith('security');
    expect(screen.getByRole('tab', { name: 'Security' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel').textContent).toBe('Panel of security');

    await user.keyboard('{ArrowRight} ');
    expect(onChange).toHaveBeenLastCalledWith('wallet');
    expect(onChange).toHaveBeenCalledTimes(2);
    expect(screen.getByRole('tab', { name: 'Wallet' }).tabIndex).toBe(0);
  });

  it('activates on click', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Settings onChange={onChange} />);
    await user.click(screen.getByRole('tab', { name: 'Payment' }));
    expect(onChange).toHaveBeenCalledWith('payment');
  });

  it('skips disabled tabs and does not activate them', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    const tabs: TabItem<Section>[] = settingsTabs.map((tab) =>
      tab.value === 'security' ? { ...tab, disabled: true } : tab,
    );
    render(<Settings onChange={onChange} tabs={tabs} />);
    await user.tab();
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Wallet' }));
    await user.click(screen.getByRole('tab', { name: 'Security' }));
    expect(onChange).not.toHaveBeenCalled();
  });

  it('selects on arrow keys with activation="automatic"', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Tabs label="T" tabs={settingsTabs} value="account" onChange={onChange} activation="automatic" />);
    await user.tab();
    await user.keyboard('{ArrowRight}');
    expect(onChange).toHaveBeenCalledWith('security');
  });

  it('renders router links through renderTab; Enter clicks the link', async () => {
    const user = userEvent.setup();
    const navigate = vi.fn();
    render(
      <Tabs
        label="Profile"
        tabs={[
          { value: 'collection', label: 'Collectibles', count: 3 },
          { value: 'for-sale', label: 'For sale', count: 0 },
        ]}
        value="collection"
        onChange={() => {}}
        renderTab={(tab, props) => (
          <a
            href={`/profile/${tab.value}`}
            {...props}
            onClick={(event) => {
              event.preventDefault();
              props.onClick(event);
              navigate(tab.value);
            }}
          />
        )}
      />,
    );
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((tab) => tab.tagName)).toEqual(['A', 'A']);
    expect(tabs[0]!.textContent).toBe('Collectibles3');
    expect(screen.queryByRole('tabpanel')).toBeNull();

    await user.tab();
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(tabs[1]);
    await user.keyboard('{Enter}');
    expect(navigate).toHaveBeenCalledWith('for-sale');
  });
});
