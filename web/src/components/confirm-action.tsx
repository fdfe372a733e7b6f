import { useState } from 'react';
import { Button } from 'react-aria-components';
import { Field } from './form';

/**
 * A destructive action that asks first: the button opens a confirmation that names the object and stays disabled until
 * its name is typed, so nothing is deleted by a stray click or key press.
 */
export function ConfirmAction(props: {
  /** What the button says, e.g. "Delete". */
  verb: string;
  /** The object's name, typed back to confirm. */
  name: string;
  onConfirm: () => void | Promise<unknown>;
  pending?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  if (!open) {
    return (
      <Button className="button danger" onPress={() => setOpen(true)} aria-label={`${props.verb} ${props.name}`}>
        {props.verb}
      </Button>
    );
  }
  return (
    <div className="confirm" role="group" aria-label={`Confirm: ${props.verb} ${props.name}`}>
      <Field
        label={`Type ${props.name} to ${props.verb.toLowerCase()} it`}
        value={typed}
        onChange={setTyped}
        autoFocus
      />
      <Button
        className="button danger"
        isDisabled={typed !== props.name || props.pending}
        onPress={() => void Promise.resolve(props.onConfirm()).then(() => setOpen(false))}
      >
        {props.verb} {props.name}
      </Button>
      <Button
        className="button"
        onPress={() => {
          setOpen(false);
          setTyped('');
        }}
      >
        Keep it
      </Button>
    </div>
  );
}
