import { useId } from 'react';

/** A labelled native file input: the browser's own accessible picker, reachable from the keyboard. */
export function FileField(props: {
  label: string;
  name: string;
  accept?: string;
  multiple?: boolean;
  onChange: (files: File[]) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type="file"
        name={props.name}
        accept={props.accept}
        multiple={props.multiple}
        required
        onChange={(e) => props.onChange(Array.from(e.target.files ?? []))}
      />
    </div>
  );
}
