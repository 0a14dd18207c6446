import { Fragment, type KeyboardEvent, type MouseEvent, type ReactNode, useId, useRef } from 'react';
import { cx } from './cx';

export interface TabItem<V extends string = string> {
  value: V;
  label: ReactNode;
  /** A count or badge after the label (e.g. "Collectibles 12"). */
  count?: ReactNode;
  disabled?: boolean;
}

/** Everything a custom tab element must carry; spread it on the element (e.g. a router Link). */
export interface TabRenderProps {
  id: string;
  role: 'tab';
  'aria-selected': boolean;
  'aria-controls': string | undefined;
  'aria-disabled': true | undefined;
  tabIndex: 0 | -1;
  className: string;
  ref: (element: HTMLElement | null) => void;
  onClick: (event: MouseEvent<HTMLElement>) => void;
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
  children: ReactNode;
}

export interface TabsProps<V extends string = string> {
  tabs: ReadonlyArray<TabItem<V>>;
  /** The selected tab's value. */
  value: V;
  /** Called when a tab is activated (click, Enter or Space; arrows too with activation="automatic"). */
  onChange: (value: V) => void;
  /** Accessible name of the tab list. */
  label: string;
  /**
   * "manual" (default): arrows move focus, Enter/Space select. "automatic": arrows also select.
   */
  activation?: 'manual' | 'automatic';
  /** underline (default) or pills. */
  variant?: 'underline' | 'pills';
  /** Render a tab as something else (a router link): spread the given props on it. */
  renderTab?: (tab: TabItem<V>, props: TabRenderProps) => ReactNode;
  /** Content of the selected tab, rendered in the tabpanel. Omit when the panel lives elsewhere (router outlet). */
  children?: ReactNode;
  className?: string;
  panelClassName?: string;
}

/**
 * An accessible tab list (WAI-ARIA tabs): ArrowLeft/ArrowRight move between tabs (wrapping, skipping
 * disabled ones), Home/End jump to the ends, Enter/Space activate. Controlled through value/onChange.
 */
export function Tabs<V extends string = string>({
  tabs,
  value,
  onChange,
  label,
  activation = 'manual',
  variant = 'underline',
  renderTab,
  children,
  className,
  panelClassName,
}: TabsProps<V>) {
  const baseId = useId();
  const elements = useRef<Array<HTMLElement | null>>([]);
  const tabId = (index: number) => `${baseId}-tab-${index}`;
  const panelId = `${baseId}-panel`;
  const hasPanel = children !== undefined;
  const selectedIndex = tabs.findIndex((tab) => tab.value === value);
  // With no selected tab, the first enabled tab is the way into the list.
  const entryIndex = selectedIndex !== -1 ? selectedIndex : tabs.findIndex((tab) => !tab.disabled);

  const enabledFrom = (start: number, step: 1 | -1): number => {
    for (let n = 1; n <= tabs.length; n++) {
      const index = (((start + step * n) % tabs.length) + tabs.length) % tabs.length;
      if (!tabs[index]?.disabled) return index;
    }
    return start;
  };

  const moveTo = (index: number) => {
    elements.current[index]?.focus();
    const tab = tabs[index];
    if (activation === 'automatic' && tab && tab.value !== value) onChange(tab.value);
  };

  const onKeyDown = (index: number) => (event: KeyboardEvent<HTMLElement>) => {
    switch (event.key) {
      case 'ArrowRight':
        event.preventDefault();
        moveTo(enabledFrom(index, 1));
        break;
      case 'ArrowLeft':
        event.preventDefault();
        moveTo(enabledFrom(index, -1));
        break;
      case 'Home':
        event.preventDefault();
        moveTo(enabledFrom(-1, 1));
        break;
      case 'End':
        event.preventDefault();
        moveTo(enabledFrom(tabs.length, -1));
        break;
      case 'Enter':
      case ' ':
        // One path for every kind of tab: a click, which a router link turns into navigation.
        event.preventDefault();
        event.currentTarget.click();
        break;
    }
  };

  const onClick = (tab: TabItem<V>) => (event: MouseEvent<HTMLElement>) => {
    if (tab.disabled) {
      event.preventDefault();
      return;
    }
    if (tab.value !== value) onChange(tab.value);
  };

  return (
    <div className={cx('vt-tabs', `vt-tabs--${variant}`, className)}>
      <div role="tablist" aria-label={label} aria-orientation="horizontal" className="vt-tabs__list">
        {tabs.map((tab, index) => {
          const selected = index === selectedIndex;
          const content = (
            <>
              <span className="vt-tabs__label">{tab.label}</span>
              {tab.count !== undefined ? <span className="vt-tabs__count">{tab.count}</span> : null}
            </>
          );
          const props: TabRenderProps = {
            id: tabId(index),
            role: 'tab',
            'aria-selected': selected,
            'aria-controls': hasPanel && selected ? panelId : undefined,
            'aria-disabled': tab.disabled ? true : undefined,
            tabIndex: index === entryIndex ? 0 : -1,
            className: cx('vt-tabs__tab', selected && 'vt-tabs__tab--selected'),
            ref: (element) => {
              elements.current[index] = element;
            },
            onClick: onClick(tab),
            onKeyDown: onKeyDown(index),
            children: content,
          };
          if (renderTab) return <Fragment key={tab.value}>{renderTab(tab, props)}</Fragment>;
          const { children: tabChildren, ...buttonProps } = props;
          return (
            <button key={tab.value} type="button" {...buttonProps}>
              {tabChildren}
            </button>
          );
        })}
      </div>
      {hasPanel ? (
        <div
          role="tabpanel"
          id={panelId}
          aria-labelledby={selectedIndex !== -1 ? tabId(selectedIndex) : undefined}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: WAI-ARIA tabs pattern: the panel is focusable.
          tabIndex={0}
          className={cx('vt-tabs__panel', panelClassName)}
        >
          {children}
        </div>
      ) : null}
    </div>
  );
}
