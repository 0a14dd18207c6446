import type { ActorRefFrom } from 'xstate';
import type { settingsFormMachine } from '../../../machines/settingsForm';
import { Button } from '../components';

/** Cancel and save of a settings section in edit mode. */
export function EditActions({
  actor,
  busy,
  save,
}: {
  actor: ActorRefFrom<typeof settingsFormMachine>;
  busy: boolean;
  save: string;
}) {
  return (
    <div className="vt-actions">
      <Button
        type="button"
        variant="ghost"
        onClick={() => actor.send({ type: 'settings.cancel' })}
        disabled={busy}
      >
        Cancel
      </Button>
      <Button type="submit" variant="primary" loading={busy}>
        {save}
      </Button>
    </div>
  );
}
