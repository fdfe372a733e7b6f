import { useState } from 'react';
import { Button } from 'react-aria-components';
import { ErrorNote, Field } from '../../components/form';
import { useAction } from '../../components/use-action';

/**
 * Removes an object after its name is typed back; the server's refusal (a 409 naming what still uses an environment)
 * is shown in its words beside the confirmation.
 */
export function ConfirmRemoval(props: { kind: string; name: string; slug: string; remove: () => Promise<unknown> }) {
  const action = useAction([['project', props.slug]]);
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const close = () => {
    setOpen(false);
    setTyped('');
    action.setError(null);
  };
  if (!open) {
    return (
      <Button className="button danger" onPress={() => setOpen(true)} aria-label={`Remove ${props.kind} ${props.name}`}>
        Remove
      </Button>
    );
  }
  return (
    <div className="confirm" role="group" aria-label={`Remove ${props.kind} ${props.name}`}>
      <Field label={`Type ${props.name} to remove this ${props.kind}`} value={typed} onChange={setTyped} autoFocus />
      <Button
        className="button danger"
        isDisabled={typed !== props.name || action.pending}
        onPress={() =>
          void action
            .run(async () => {
              await props.remove();
              return true;
            })
            .then((done) => done && close())
        }
      >
        Remove {props.name}
      </Button>
      <Button className="button" onPress={close}>
        Keep it
      </Button>
      <ErrorNote error={action.error} />
    </div>
  );
}
