import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Checkbox, Form } from 'react-aria-components';
import { api, ok } from '../../api/client';
import { Choice } from '../../components/choice';
import { ErrorNote, Field, Submit, formValues } from '../../components/form';
import { QueryState } from '../../components/query-state';
import { useAction } from '../../components/use-action';
import { wordsOf } from '../../components/words';

const DIGESTS = [
  { value: '', label: 'Each notification at once' },
  { value: String(3_600_000), label: 'Hourly digest' },
  { value: String(86_400_000), label: 'Daily digest' },
];

/** The digest choice, starting from the saved interval (a controlled select: the browser keeps no default of its own). */
function DigestChoice({ saved }: { saved: number | null }) {
  const [digest, setDigest] = useState(saved === null ? '' : String(saved));
  const known = DIGESTS.some((d) => d.value === digest);
  const options = known
    ? DIGESTS
    : [...DIGESTS, { value: digest, label: `Digest every ${Number(digest) / 60_000} min` }];
  return <Choice name="digest" label="Delivery" value={digest} onChange={setDigest} options={options} />;
}

/** Personal preferences: events (names, categories or `*`), email beside in-app, project scope, digest mode. */
export function PreferencesForm() {
  const prefs = useQuery({
    queryKey: ['notifications', 'preferences'],
    queryFn: () => ok(api.GET('/api/v2/notifications/preferences')),
  });
  const save = useAction([['notifications', 'preferences']]);
  return (
    <section aria-labelledby="prefs-heading">
      <h2 id="prefs-heading">My preferences</h2>
      <QueryState query={prefs}>
        {(p) => (
          <Form
            aria-label="Notification preferences"
            className="stack"
            onSubmit={(e) => {
              e.preventDefault();
              const v = formValues(e.currentTarget);
              const events = wordsOf(v.events ?? '');
              const byEmail = new FormData(e.currentTarget).get('email') === 'on';
              const projects = wordsOf(v.projects ?? '');
              void save.run(() =>
                ok(
                  api.PUT('/api/v2/notifications/preferences', {
                    body: {
                      events,
                      channels: byEmail
                        ? Object.fromEntries(events.map((ev) => [ev, ['in_app' as const, 'email' as const]]))
                        : {},
                      ...(projects.length > 0 ? { projects } : {}),
                      digestIntervalMs: v.digest ? Number(v.digest) : null,
                    },
                  }),
                ),
              );
            }}
          >
            <Field
              name="events"
              label="Events (names, categories or *)"
              defaultValue={p.events.join(', ')}
              placeholder="deployment, break_glass.opened"
            />
            <Checkbox
              name="email"
              value="on"
              defaultSelected={Object.values(p.channels).some((c) => c.includes('email'))}
              className="checkbox"
            >
              <span className="box" aria-hidden="true" />
              Also send them to me by email
            </Checkbox>
            <Field name="projects" label="Only these projects (slugs; empty: all)" />
            <DigestChoice saved={p.digestIntervalMs} />
            <Submit pending={save.pending}>Save preferences</Submit>
            <ErrorNote error={save.error} />
          </Form>
        )}
      </QueryState>
    </section>
  );
}
