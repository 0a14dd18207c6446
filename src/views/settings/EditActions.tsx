import type { SettingsFormView } from '../../../machines/settingsForm';
import { Button } from '../components';

/** Cancel and save of a settings section in edit mode. */
export function EditActions({ view, save }: { view: SettingsFormView; save: string }) {
  return (
    <div className="vt-actions">
      <Button type="button" variant="ghost" onClick={view.cancel} disabled={!view.canCancel}>
        Cancel
      </Button>
      <Button type="submit" variant="primary" loading={view.busy}>
        {save}
      </Button>
    </div>
  );
}
