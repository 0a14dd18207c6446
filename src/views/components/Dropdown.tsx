import {
  Fragment,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { cx } from './cx';
import { ChevronDownIcon } from './fieldIcons';
import { useEscape } from './useEscape';
import { useOutsideClick } from './useOutsideClick';

export interface DropdownItem {
  id: string;
  label: ReactNode;
  icon?: ReactNode;
  /** Render the item as a link. */
  href?: string;
  /** Called when the item is chosen (after the menu closed). */
  onSelect?: () => void;
  disabled?: boolean;
  /** Destructive item (e.g. "Logout", "Delete"), shown in the danger colour. */
  danger?: boolean;
  /** Draw a divider above this item. */
  separator?: boolean;
}

/** Everything a custom menu item must carry; spread it on the element (e.g. a router Link). */
export interface DropdownItemRenderProps {
  id: string;
  role: 'menuitem';
  tabIndex: -1;
  'aria-disabled': true | undefined;
  className: string;
  ref: (element: HTMLElement | null) => void;
  onClick: (event: MouseEvent<HTMLElement>) => void;
  children: ReactNode;
}

export interface DropdownProps {
  /** Content of the trigger button (text, an avatar…). */
  trigger: ReactNode;
  /** Accessible name of the trigger when its content is not text (e.g. "User menu"). */
  label?: string;
  items: ReadonlyArray<DropdownItem>;
  /** Called with the chosen item's id (after the item's own onSelect). */
  onSelect?: (id: string) => void;
  /** Controlled open state (e.g. userMenuOpened of the ui machine); uncontrolled when omitted. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** Which edge of the trigger the menu lines up with. Default "start". */
  align?: 'start' | 'end';
  /** Look of the trigger: secondary (default), ghost, or plain (no chrome, e.g. an avatar). */
  triggerVariant?: 'secondary' | 'ghost' | 'plain';
  /** Show a chevron after the trigger content. Default true except for the plain trigger. */
  showChevron?: boolean;
  /** Render an item as something else (a router link): spread the given props on it. */
  renderItem?: (item: DropdownItem, props: DropdownItemRenderProps) => ReactNode;
  className?: string;
  triggerClassName?: string;
  menuClassName?: string;
}

/**
 * A menu button (WAI-ARIA menu button pattern). Opens on click (or ArrowDown/ArrowUp on the trigger) and
 * focuses an item; ArrowUp/ArrowDown/Home/End move between items, Enter/Space choose one. Closes on
 * Escape (focus back on the trigger), outside click, Tab, or choosing an item.
 */
export function Dropdown({
  trigger,
  label,
  items,
  onSelect,
  open,
  onOpenChange,
  align = 'start',
  triggerVariant = 'secondary',
  showChevron = triggerVariant !== 'plain',
  renderItem,
  className,
  triggerClassName,
  menuClassName,
}: DropdownProps) {
  const baseId = useId();
  const triggerId = `${baseId}-trigger`;
  const menuId = `${baseId}-menu`;
  const rootRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const [innerOpen, setInnerOpen] = useState(false);
  const isOpen = open ?? innerOpen;

  const setOpen = (next: boolean) => {
    if (open === undefined) setInnerOpen(next);
    onOpenChange?.(next);
  };
  const focus = useMenuFocus(items, isOpen);

  const closeAndReturnFocus = () => {
    setOpen(false);
    triggerRef.current?.focus();
  };

  useEscape(closeAndReturnFocus, isOpen);
  useOutsideClick(rootRef, () => setOpen(false), isOpen);

  const onTriggerClick = () => {
    if (isOpen) {
      setOpen(false);
    } else {
      focus.onOpen.current = 'first';
      setOpen(true);
    }
  };

  const onTriggerKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    const edge = event.key === 'ArrowDown' ? 'first' : 'last';
    if (isOpen) {
      const enabled = focus.enabledIndexes();
      focus.focusItem(edge === 'first' ? enabled[0] : enabled[enabled.length - 1]);
    } else {
      focus.onOpen.current = edge;
      setOpen(true);
    }
  };

  // Tab leaves from the trigger, so Tab continues from where the menu was opened.
  const onMenuKeyDown = menuKeyDown(focus, () => {
    triggerRef.current?.focus();
    setOpen(false);
  });

  const onItemClick = (item: DropdownItem) => (event: MouseEvent<HTMLElement>) => {
    if (item.disabled) {
      event.preventDefault();
      return;
    }
    closeAndReturnFocus();
    item.onSelect?.();
    onSelect?.(item.id);
  };

  const triggerClasses = cx(
    'vt-dropdown__trigger',
    triggerVariant === 'plain'
      ? 'vt-dropdown__trigger--plain'
      : `vt-button vt-button--${triggerVariant} vt-button--md`,
    triggerClassName,
  );

  return (
    <div ref={rootRef} className={cx('vt-dropdown', isOpen && 'vt-dropdown--open', className)}>
      <button
        ref={triggerRef}
        id={triggerId}
        type="button"
        className={triggerClasses}
        aria-haspopup="menu"
        aria-expanded={isOpen}
        aria-controls={isOpen ? menuId : undefined}
        aria-label={label}
        onClick={onTriggerClick}
        onKeyDown={onTriggerKeyDown}
      >
        <span className="vt-button__label">
          {trigger}
          {showChevron ? <ChevronDownIcon size={16} className="vt-dropdown__chevron" /> : null}
        </span>
      </button>
      {isOpen ? (
        <div
          id={menuId}
          role="menu"
          aria-labelledby={triggerId}
          tabIndex={-1}
          className={cx('vt-dropdown__menu', `vt-dropdown__menu--${align}`, menuClassName)}
          onKeyDown={onMenuKeyDown}
        >
          {items.map((item, index) => (
            <Fragment key={item.id}>
              {item.separator ? <hr className="vt-dropdown__separator" /> : null}
              {itemElement(
                item,
                itemProps(item, `${baseId}-item-${index}`, onItemClick(item), (element) => {
                  focus.elements.current[index] = element;
                }),
                renderItem,
              )}
            </Fragment>
          ))}
        </div>
      ) : null}
    </div>
  );
}

/**
 * Focus among the menu's items: on opening it moves to the first enabled item (the last, when
 * opened with ArrowUp), or to the menu itself when every item is disabled.
 */
function useMenuFocus(items: ReadonlyArray<DropdownItem>, isOpen: boolean) {
  const elements = useRef<Array<HTMLElement | null>>([]);
  const onOpen = useRef<'first' | 'last'>('first');
  const enabledIndexes = () => items.flatMap((item, index) => (item.disabled ? [] : [index]));
  const focusItem = (index: number | undefined) => {
    if (index !== undefined) elements.current[index]?.focus();
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: focus moves in once per opening, not when items change.
  useEffect(() => {
    if (!isOpen) return;
    const enabled = items.flatMap((item, index) => (item.disabled ? [] : [index]));
    const index = onOpen.current === 'last' ? enabled[enabled.length - 1] : enabled[0];
    if (index !== undefined) elements.current[index]?.focus();
    else elements.current[0]?.closest<HTMLElement>('[role="menu"]')?.focus();
    onOpen.current = 'first';
  }, [isOpen]);
  return { elements, onOpen, enabledIndexes, focusItem };
}

/**
 * The menu's keys: ArrowDown/ArrowUp move to the next/previous enabled item (round the ends),
 * Home/End to the first/last, Enter/Space choose the focused item, Tab calls `leave`.
 */
function menuKeyDown(
  { elements, enabledIndexes, focusItem }: ReturnType<typeof useMenuFocus>,
  leave: () => void,
) {
  return (event: KeyboardEvent<HTMLDivElement>) => {
    const enabled = enabledIndexes();
    if (enabled.length === 0) return;
    const current = elements.current.indexOf(document.activeElement as HTMLElement | null);
    const position = enabled.indexOf(current);
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        focusItem(enabled[position === -1 ? 0 : (position + 1) % enabled.length]);
        break;
      case 'ArrowUp':
        event.preventDefault();
        focusItem(
          enabled[position === -1 ? enabled.length - 1 : (position - 1 + enabled.length) % enabled.length],
        );
        break;
      case 'Home':
        event.preventDefault();
        focusItem(enabled[0]);
        break;
      case 'End':
        event.preventDefault();
        focusItem(enabled[enabled.length - 1]);
        break;
      case 'Enter':
      case ' ':
        // One path for every kind of item: a click, which a link or router link turns into navigation.
        event.preventDefault();
        if (current !== -1) elements.current[current]?.click();
        break;
      case 'Tab':
        leave();
        break;
    }
  };
}

/** What every item carries (see DropdownItemRenderProps): its role, state, look and content. */
function itemProps(
  item: DropdownItem,
  id: string,
  onClick: DropdownItemRenderProps['onClick'],
  ref: DropdownItemRenderProps['ref'],
): DropdownItemRenderProps {
  return {
    id,
    role: 'menuitem',
    tabIndex: -1,
    'aria-disabled': item.disabled ? true : undefined,
    className: cx('vt-dropdown__item', item.danger && 'vt-dropdown__item--danger'),
    ref,
    onClick,
    children: (
      <>
        {item.icon ? <span className="vt-dropdown__icon">{item.icon}</span> : null}
        <span className="vt-dropdown__text">{item.label}</span>
      </>
    ),
  };
}

/** An item as `renderItem` draws it; else a link (an enabled item with an href) or a button. */
function itemElement(
  item: DropdownItem,
  props: DropdownItemRenderProps,
  renderItem: DropdownProps['renderItem'],
): ReactNode {
  if (renderItem) return renderItem(item, props);
  const { children, ...elementProps } = props;
  if (item.href !== undefined && !item.disabled)
    return (
      <a href={item.href} {...elementProps}>
        {children}
      </a>
    );
  return (
    <button type="button" {...elementProps}>
      {children}
    </button>
  );
}
