import { useNavigate } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { routePaths } from '#domain/routes';
import { interfaceState } from '../../../machines/ui';
import { useApp } from '../AppContext';
import { Button, Modal } from '../components';

/** Asks an anonymous user to sign in or register before a protected action (SPEC §2). */
export function SignInModal() {
  const { ui } = useApp();
  const navigate = useNavigate();
  const open = useSelector(ui, (s) => interfaceState(s).showSignup);
  const hide = () => ui.send({ type: 'ui.signup.hide' });
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
            navigate({ to: routePaths.AuthConnect });
          }}
        >
          Sign In
        </Button>
      </div>
    </Modal>
  );
}
