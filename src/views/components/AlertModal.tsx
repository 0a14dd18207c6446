import type { ReactNode } from 'react';
import { Button } from './Button';
import { Modal } from './Modal';

export interface AlertModalProps {
  open: boolean;
  title: ReactNode;
  message: ReactNode;
  /** Called by "Done", Escape, the × button and (when enabled) an outside click. */
  onClose: () => void;
  /** Label of the single button; default "Done". */
  doneLabel?: string;
  closeOnOutsideClick?: boolean;
  /** Extra content under the message (e.g. a link). */
  children?: ReactNode;
}

/** An informational modal with a message and a single "Done" button. */
export function AlertModal({
  open,
  title,
  message,
  onClose,
  doneLabel = 'Done',
  closeOnOutsideClick,
  children,
}: AlertModalProps) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={title}
      description={message}
      size="sm"
      closeOnOutsideClick={closeOnOutsideClick}
      footer={<Button onClick={onClose}>{doneLabel}</Button>}
    >
      {children}
    </Modal>
  );
}
