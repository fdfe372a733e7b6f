import { useState } from 'react';
import { Button } from 'react-aria-components';

/**
 * A secret the server shows once (token, key, join token, webhook secret): the value with a copy button and the
 * warning that it will not be shown again. Nothing keeps it: leaving the view forgets it.
 */
export function ShownOnce({ label, value, hint }: { label: string; value: string; hint?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="shown-once" role="status">
      <p>
        <strong>{label}</strong>, shown this once: copy it now, it will not be shown again.
      </p>
      <code className="secret" data-secret>
        {value}
      </code>
      <Button
        className="button"
        onPress={() =>
          void navigator.clipboard?.writeText(value).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }
      >
        {copied ? 'Copied' : 'Copy'}
      </Button>
      {hint && <p className="muted">{hint}</p>}
    </div>
  );
}
