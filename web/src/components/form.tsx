import type { ReactNode } from 'react';
import { Button, FieldError, Input, Label, TextField, type TextFieldProps } from 'react-aria-components';

/** A labelled text input with its error shown under it (react-aria wires label, description and error for readers). */
export function Field(props: TextFieldProps & { label: string; error?: string | null; placeholder?: string }) {
  const { label, error, placeholder, ...rest } = props;
  return (
    <TextField {...rest} isInvalid={Boolean(error) || undefined} className="field">
      <Label>{label}</Label>
      <Input placeholder={placeholder} />
      <FieldError>{error ?? undefined}</FieldError>
    </TextField>
  );
}

/** The server's refusal, in its own words, announced to screen readers. */
export function ErrorNote({ error }: { error: string | null | undefined }) {
  if (!error) return null;
  return (
    <p role="alert" className="error-note">
      {error}
    </p>
  );
}

export function Submit({ children, pending }: { children: ReactNode; pending?: boolean }) {
  return (
    <Button type="submit" className="button primary" isDisabled={pending}>
      {pending ? 'Working…' : children}
    </Button>
  );
}

/** Reads the named text fields of a submitted form. */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of new FormData(form)) if (typeof value === 'string') out[key] = value;
  return out;
}
