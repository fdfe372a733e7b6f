import type { ReactNode } from 'react';
import { Form } from 'react-aria-components';
import { ErrorNote, Submit, formValues } from './form';
import type { useAction } from './use-action';

/**
 * A labelled form that sends its named fields through one user action: the submit button shows the action pending,
 * the server's refusal appears under the form, and the form is cleared once the server accepted it.
 */
export function ActionForm(props: {
  label: string;
  submit: string;
  action: ReturnType<typeof useAction>;
  send: (values: Record<string, string>) => Promise<unknown>;
  /** Keep what was typed after success (forms whose fields stay meaningful). */
  keep?: boolean;
  children: ReactNode;
}) {
  const { action } = props;
  return (
    <>
      <Form
        aria-label={props.label}
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          void action.run(
            () => props.send(formValues(form)),
            () => !props.keep && form.reset(),
          );
        }}
      >
        {props.children}
        <Submit pending={action.pending}>{props.submit}</Submit>
      </Form>
      <ErrorNote error={action.error} />
    </>
  );
}
