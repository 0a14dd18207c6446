import './components.css';

// The Carousel is imported from its own file (./Carousel): it brings its styles, so exporting it
// here would load it with every screen that uses this index.

export { AlertModal, type AlertModalProps } from './AlertModal';
export { Avatar, type AvatarProps, type AvatarSize } from './Avatar';
export { Button, type ButtonProps, type ButtonSize, type ButtonVariant } from './Button';
export { ConfirmModal, type ConfirmModalProps } from './ConfirmModal';
export { Dropdown, type DropdownItem, type DropdownItemRenderProps, type DropdownProps } from './Dropdown';
export { type FileRejection, type FileRejectionCode, FileUpload, type FileUploadProps } from './FileUpload';
export { fileMatchesAccept, formatBytes } from './fileAccept';
export { ImageLoader, type ImageLoaderProps } from './ImageLoader';
export { Modal, type ModalProps, type ModalSize } from './Modal';
export { Pager, type PagerProps } from './Pager';
export { Spinner, type SpinnerProps, type SpinnerSize } from './Spinner';
export { type TabItem, type TabRenderProps, Tabs, type TabsProps } from './Tabs';
export { TextInput, type TextInputProps } from './TextInput';
export { type ToastItem, ToastList, type ToastListProps } from './ToastList';
export {
  RESIZE_DEBOUNCE_MS,
  useDebouncedResize,
  useViewportWidth,
  type ViewportSize,
} from './useDebouncedResize';
export { useEscape } from './useEscape';
export { useObjectUrl } from './useObjectUrl';
export { useOutsideClick } from './useOutsideClick';
