import { useId, useState, type ReactNode } from 'react';
import { Button, Form } from 'react-aria-components';
import { fieldErrors } from './field-errors';
import { ErrorNote, Field, Submit, formValues } from './form';
import type { useAction } from './use-action';

/** One field of a FieldForm: what it is, how it is checked before sending, and the body paths its server errors name. */
export interface FieldSpec {
  name: string;
  label: string;
  kind?: 'text' | 'number' | 'choice' | 'checkbox' | 'textarea';
  options?: { value: string; label: string }[];
  required?: boolean;
  min?: number;
  max?: number;
  /** Checks the typed value; returns the message shown under the field, or null. */
  check?: (value: string) => string | null;
  /** Body paths (`eligibleApprovers.roles`) whose refusal by the server is shown under this field. */
  paths?: string[];
  /** The server's own refusals about this field (`unknown event or group: ...`), shown under it too. */
  refusals?: RegExp;
  placeholder?: string;
}

export type FieldValues = Record<string, string>;

/** The message under a field the form's own checks find wrong, before anything is sent. */
function localError(spec: FieldSpec, value: string): string | null {
  if (spec.kind === 'checkbox') return null;
  if (value.trim() === '') return spec.required ? `${spec.label} is required` : null;
  if (spec.kind === 'number') {
    const n = Number(value);
    if (!Number.isInteger(n)) return `${spec.label} must be a whole number`;
    if (spec.min !== undefined && n < spec.min) return `${spec.label} must be at least ${spec.min}`;
    if (spec.max !== undefined && n > spec.max) return `${spec.label} must be at most ${spec.max}`;
  }
  return spec.check?.(value) ?? null;
}

/** A non-text control with its label and its error under it, wired for screen readers. */
function Control(props: { spec: FieldSpec; value: string | undefined; error: string | null }) {
  const { spec, value, error } = props;
  const id = useId();
  const described = error ? `${id}-error` : undefined;
  const common = { id, name: spec.name, 'aria-invalid': error ? true : undefined, 'aria-describedby': described };
  let control: ReactNode;
  if (spec.kind === 'checkbox') control = <input type="checkbox" {...common} defaultChecked={value === 'on'} />;
  else if (spec.kind === 'textarea') control = <textarea rows={4} {...common} defaultValue={value} />;
  else
    control = (
      <select {...common} defaultValue={value}>
        {!spec.required && <option value="">—</option>}
        {spec.options?.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    );
  return (
    <div className={spec.kind === 'checkbox' ? 'field checkbox' : 'field'}>
      {spec.kind === 'checkbox' && control}
      <label htmlFor={id}>{spec.label}</label>
      {spec.kind !== 'checkbox' && control}
      {error && (
        <p id={described} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * A create or edit form described by its fields: each field's own check and the server's refusal of a body path are
 * shown under that field (anything else under the form); the action's pending state disables the submit button.
 */
export function FieldForm(props: {
  label: string;
  submit: string;
  fields: FieldSpec[];
  /** Saved values of an edit form (checkboxes: 'on' when set). */
  initial?: FieldValues;
  action: ReturnType<typeof useAction>;
  send: (values: FieldValues) => Promise<unknown>;
  onDone?: () => void;
  onCancel?: () => void;
}) {
  const { action, fields } = props;
  const [local, setLocal] = useState<Record<string, string>>({});
  const paths = Object.fromEntries(fields.flatMap((f) => (f.paths ?? [f.name]).map((p) => [p, f.name])));
  const byPath = fieldErrors(action.error, paths);
  const refused = byPath.form === null ? undefined : fields.find((f) => f.refusals?.test(byPath.form ?? ''));
  const server = refused ? { of: (name: string) => (name === refused.name ? action.error : null), form: null } : byPath;
  const errorOf = (name: string) => local[name] ?? server.of(name);
  return (
    <>
      <Form
        aria-label={props.label}
        className="field-form"
        validationBehavior="aria"
        onSubmit={(e) => {
          e.preventDefault();
          const form = e.currentTarget;
          const values = formValues(form);
          const found = Object.fromEntries(
            fields.flatMap((f) => {
              const message = localError(f, values[f.name] ?? '');
              return message ? [[f.name, message]] : [];
            }),
          );
          setLocal(found);
          action.setError(null);
          if (Object.keys(found).length > 0) return;
          void action
            .run(
              async () => {
                await props.send(values);
                return true;
              },
              () => !props.initial && form.reset(),
            )
            .then((done) => done && props.onDone?.());
        }}
      >
        {fields.map((f) =>
          f.kind === undefined || f.kind === 'text' || f.kind === 'number' ? (
            <Field
              key={f.name}
              name={f.name}
              label={f.label}
              defaultValue={props.initial?.[f.name]}
              inputMode={f.kind === 'number' ? 'numeric' : undefined}
              placeholder={f.placeholder}
              error={errorOf(f.name)}
            />
          ) : (
            <Control key={f.name} spec={f} value={props.initial?.[f.name]} error={errorOf(f.name)} />
          ),
        )}
        <Submit pending={action.pending}>{props.submit}</Submit>
        {props.onCancel && (
          <Button className="button" onPress={props.onCancel}>
            Cancel
          </Button>
        )}
      </Form>
      <ErrorNote error={server.form} />
    </>
  );
}
