import { useLocation, useNavigate } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { connectUi } from '../../../machines/ui';
import { useApp } from '../AppContext';
import { Button } from '../components/Button';
import { Modal } from '../components/Modal';

/**
 * Asks an anonymous visitor to sign in or register before a protected action (buy, report); signed
 * in, they come back where they were (or where the action asked, e.g. the item with its checkout).
 */
export function SignInModal() {
  const { ui, session } = useApp();
  const navigate = useNavigate();
  const here = useLocation({ select: (l) => l.href });
  const { showSignup: open, hideSignup: hide, signInReturn } = useSelector(ui, (s) => connectUi(s, ui.send));
  return (
    <Modal open={open} onClose={hide} title="Sign in to continue" closeOnOutsideClick>
      <p>Sign in or create a free account to buy, sell and collect on Vitrine.</p>
      <div className="vt-actions">
        <Button variant="secondary" onClick={hide}>
          Cancel
        </Button>
        <Button
          variant="primary"
          onClick={() => {
            hide();
            session.send({ type: 'session.redirect.save', path: signInReturn ?? here });
            navigate({ to: '/auth/connect' });
          }}
        >
          Sign In
        </Button>
      </div>
    </Modal>
  );
}
