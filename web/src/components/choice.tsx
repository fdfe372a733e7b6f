import { useId } from 'react';

/** A labelled native select: the browser's own accessible control, usable from the keyboard and by readers. */
export function Choice(props: {
  label: string;
  name: string;
  options: { value: string; label: string }[];
  value?: string;
  /** The option chosen first in an uncontrolled select (an edit form's saved value). */
  defaultValue?: string;
  onChange?: (value: string) => void;
  /** Adds a first option for "no choice" with this label. */
  any?: string;
  required?: boolean;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select
        id={id}
        name={props.name}
        value={props.value}
        defaultValue={props.defaultValue}
        required={props.required}
        onChange={props.onChange ? (e) => props.onChange!(e.target.value) : undefined}
      >
        {props.any !== undefined && <option value="">{props.any}</option>}
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export const optionsOf = (values: string[]) => values.map((v) => ({ value: v, label: v }));
